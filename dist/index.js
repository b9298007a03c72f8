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

/***/ 2929:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _action_main_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5361);
/* harmony import */ var _action_toolkit_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7096);
/** GitHub Action entry (bundled as dist/index.js): it only calls action/main.ts `run()`, which holds the logic. */


// The runner protocol without @actions/core's HTTP stack (loaded only when a token is used: github-client.ts).
const core = (0,_action_toolkit_js__WEBPACK_IMPORTED_MODULE_1__/* .lazyCore */ .K)();
try {
    await (0,_action_main_js__WEBPACK_IMPORTED_MODULE_0__/* .run */ .e)(core);
}
catch (error) {
    // A bug, never an input problem: fail closed with a plain message; the stack goes to the debug log.
    core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
    try {
        core.setOutput('result', 'error');
    }
    catch {
        // The outputs file is what failed (a runner without GITHUB_OUTPUT's file): the failure below still says why.
    }
    core.setFailed(`receipt-gate: internal error: ${error instanceof Error ? error.message : String(error)}`);
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 5361:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  e: () => (/* binding */ run)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __nccwpck_require__(3491);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/gate/cache.ts
var gate_cache = __nccwpck_require__(2837);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
;// CONCATENATED MODULE: ./src/core/effect.ts

function statusOf(call) {
    // The provider's export covered the call and logged nothing: it fails whatever the rule, its exception or its grandfathering (a red team: counted as met).
    if (call.effect_not_logged && call.required_level !== null)
        return 'unmet';
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
/** What a policy's change is said of beside calls (records, coverage statements, runs): their lines of the change list, never a rule's name. */
const ITEMS = { '(records)': 'record', '(statements)': 'coverage statement', '(runs)': 'run' };
const isItems = (rule) => rule === '(records)' || rule === '(statements)' || rule === '(runs)';
const PASSES = 'passes';
const at = (x) => `${x.file}\u0000${x.line}\u0000${x.column}`;
/** Each record's, coverage statement's and run's verdict in a report: the code of the first error found at its place (a run's: its first line), or `passes`. */
function itemStatus(report) {
    const failing = new Map();
    for (const f of report.findings)
        if (f.severity === 'error' && f.input === undefined && !failing.has(at(f)))
            failing.set(at(f), f.code);
    const out = new Map();
    const put = (kind, place) => out.set(place, { kind, status: failing.get(place) ?? PASSES });
    for (const r of report.records)
        put('(records)', at(r));
    for (const s of report.coverage)
        put('(statements)', at(s));
    for (const r of report.runs)
        put('(runs)', at({ file: r.artifact, line: 1, column: 1 }));
    return out;
}
/**
 * The records, coverage statements and runs whose verdict changes from `before` to `after` (a
 * `pending` added, a grandfathered audit file or run, a trust section), one line per change.
 */
function itemChanges(before, after) {
    const was = itemStatus(before);
    const counted = new Map();
    for (const [place, { kind, status: to }] of itemStatus(after)) {
        const from = was.get(place)?.status ?? PASSES;
        if (from === to)
            continue;
        const id = `${kind}\u0000${from}\u0000${to}`;
        counted.set(id, { rule: kind, from, to, calls: (counted.get(id)?.calls ?? 0) + 1 });
    }
    return [...counted.values()];
}
/**
 * The calls, then the records, coverage statements and runs, whose verdict changes from `before` to `after` (two reports of the
 * same evidence; docs/policy.md §11: "any call or record"). The line of records, statements or runs counts them in `calls`.
 */
function changes(before, after) {
    return [
        ...callChanges(before, after),
        ...itemChanges(before, after).sort((a, b) => (0,core_text/* cmp */.r2)(a.rule, b.rule) || (0,core_text/* cmp */.r2)(a.from, b.from) || (0,core_text/* cmp */.r2)(a.to, b.to)),
    ];
}
function callChanges(before, after) {
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
/**
 * "12 call(s) of prod-deploy-keys: under the base: met; under this pull request: unmet; …" (at most
 * `max` changes named). Every place that shows a change (the summary, the finding, `policy check
 * --against`) says it in one direction: from the policy in effect to the one proposed.
 */
function changesText(list, names, max = 6) {
    if (list.length === 0)
        return 'no call, record, statement or run changes verdict';
    const shown = list
        .slice(0, max)
        .map((c) => `${isItems(c.rule) ? `${c.calls} ${ITEMS[c.rule]}(s)` : `${c.calls} call(s) of ${c.rule}`}: under ${names.before}: ${c.from}; under ${names.after}: ${c.to}`);
    return `${shown.join('; ')}${list.length > max ? `; and ${list.length - max} more change(s)` : ''}`;
}
/** A pull request's change, as the finding and the summary name its two sides. */
const PULL_CHANGE = { before: "the base's policy", after: "this pull request's policy" };
/** Whether a change turns any call, record, statement or run from failing to passing (a loosening: a warning, docs/policy.md §11). */
const loosens = (list) => list.some((c) => (isItems(c.rule) ? c.to === PASSES : c.from === 'unmet' && c.to !== 'unmet'));

// EXTERNAL MODULE: ./src/core/findings.ts
var core_findings = __nccwpck_require__(4637);
;// CONCATENATED MODULE: ./src/core/glob.ts
/**
 * Target globs (docs/policy.md §8, §11 "Globs are linear"): `*` matches any run of characters but
 * `/`, the empty run included; nothing else is special. A pull request writes the values a glob is
 * matched against, so matching never backtracks: the glob is split at its stars into literal
 * pieces, the first must start the value and the last must end it, and each piece between is found
 * at its leftmost place after the one before (Knuth–Morris–Pratt, each byte of the value looked at
 * a bounded number of times). Leftmost is never worse: a later place leaves less of the value for
 * the pieces after it and a longer gap, which can only hold more `/`. Time: linear in the lengths
 * of the glob and the value.
 */
/** KMP failure table: for each prefix, the length of its longest proper border. */
function failure(piece) {
    const table = new Int32Array(piece.length);
    let k = 0;
    for (let i = 1; i < piece.length; i++) {
        while (k > 0 && piece.charCodeAt(i) !== piece.charCodeAt(k))
            k = table[k - 1] ?? 0;
        if (piece.charCodeAt(i) === piece.charCodeAt(k))
            k++;
        table[i] = k;
    }
    return table;
}
function compileGlob(glob) {
    const pieces = glob.split('*');
    const empty = new Int32Array(0);
    return { pieces, tables: pieces.map((p, i) => (i === 0 || i === pieces.length - 1 || p === '' ? empty : failure(p))) };
}
/** Where `piece` first occurs in `value` at or after `from` and before `end`, or -1 (KMP: linear). */
function find(value, piece, table, from, end) {
    let k = 0;
    for (let i = from; i < end; i++) {
        const c = value.charCodeAt(i);
        while (k > 0 && c !== piece.charCodeAt(k))
            k = table[k - 1] ?? 0;
        if (c === piece.charCodeAt(k))
            k++;
        if (k === piece.length)
            return i - k + 1;
    }
    return -1;
}
/** Whether the glob matches the value whole. */
function globMatches(glob, value) {
    const { pieces, tables } = glob;
    const first = pieces[0] ?? '';
    if (pieces.length === 1)
        return value === first;
    const last = pieces[pieces.length - 1] ?? '';
    if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last))
        return false;
    const end = value.length - last.length;
    let at = first.length;
    // The first `/` at or after `at` (moved only forward: every byte is looked at once for it).
    let slash = -2;
    const starSpan = (to) => {
        if (slash !== -1 && slash < at)
            slash = value.indexOf('/', at);
        return slash < 0 || slash >= to;
    };
    for (let i = 1; i < pieces.length - 1; i++) {
        const piece = pieces[i] ?? '';
        if (piece === '')
            continue;
        const found = find(value, piece, tables[i] ?? new Int32Array(0), at, end);
        // The star before this piece spans [at, found): no `/` there, or no later place would do either.
        if (found < 0 || !starSpan(found))
            return false;
        at = found + piece.length;
    }
    return starSpan(end);
}
/**
 * Whether `outer` matches every value the glob `inner` matches (a rule reported shadowed must be
 * dead: docs/policy.md §11). Sound, not complete: `inner` is written as one text, each of its stars
 * a character `outer` does not hold and that is not `/`, and `outer` must match that text. Such a
 * character can only fall inside one of `outer`'s stars, which then takes whatever run (without
 * `/`) the inner star stands for as well. So a literal `inner` is judged exactly (`prod-*` covers
 * `prod-api`), `prod-*` covers `prod-a*`, `*` covers every glob without `/`, and `prod-a*` does not
 * cover `prod-*`. Linear in the two lengths.
 */
function globCovers(outer, inner) {
    if (!inner.includes('*'))
        return globMatches(outer, inner);
    const held = new Set();
    for (const piece of outer.pieces)
        for (let i = 0; i < piece.length; i++)
            held.add(piece.charCodeAt(i));
    // A code unit outer does not hold (a private-use one first); none free: unsure, so no.
    let star = 0xe000;
    for (let tries = 0; held.has(star) || star === 0x2f; tries++) {
        if (tries > 0xffff)
            return false;
        star = (star + 1) & 0xffff;
    }
    return globMatches(outer, inner.split('*').join(String.fromCharCode(star)));
}

;// CONCATENATED MODULE: ./src/core/classes.ts
const NONE = new Set();
const GITHUB_NAMES = new Set(['owner', 'repo']);
/** A GitHub class bound on owner, repo and these fields (GitHub's own ids: numbers, shas, refs), hashed ones as given. */
const github = (verbs, fields, hashed = []) => ({
    fields: ['owner', 'repo', ...fields],
    verbs,
    hashed: new Map(hashed),
    caseless: GITHUB_NAMES,
    scope: { owner: 'owner', repo: 'repo' },
    provider: 'github',
    wholeNumbers: new Set(fields.filter((f) => f === 'number' || f === 'comment_id')),
});
/** A class of a provider whose log is one tenant's (an AWS account, a cluster, an Okta org), bound on the tenant and these fields. */
const tenant = (provider, field, verbs, fields, hashed = [], caseless = NONE) => ({
    fields: [field, ...fields],
    verbs,
    hashed: new Map(hashed),
    caseless,
    scope: { owner: field, repo: null },
    provider,
    wholeNumbers: NONE,
});
const CLASSES = new Map([
    // The writes agents do most on GitHub, bound on the ids GitHub gives them.
    ['github_issue', github(['create', 'close'], ['number'])],
    ['github_issue_comment', github(['create'], ['comment_id'])],
    ['github_pull_request', github(['create', 'merge', 'close'], ['number'])],
    ['github_branch_push', github(['push'], ['ref', 'after'])],
    ['github_label', github(['add'], ['number', 'label_hash'], [['label', { field: 'label_hash', domain: 'github_label' }]])],
    ['github_repo_member', github(['add'], ['user_hash'], [['user', { field: 'user_hash', domain: 'github_user' }]])],
    [
        'github_deploy_key',
        {
            fields: ['owner', 'repo', 'key_title_hash'],
            verbs: ['create'],
            hashed: new Map([['key_title', { field: 'key_title_hash', domain: 'github_key_title' }]]),
            caseless: GITHUB_NAMES,
            scope: { owner: 'owner', repo: 'repo' },
            provider: 'github',
            wholeNumbers: NONE,
        },
    ],
    [
        'workspace_member',
        {
            fields: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
            verbs: ['add'],
            hashed: new Map([
                ['workspace_id', { field: 'workspace_id_hash', domain: 'slack_workspace' }],
                ['channel_id', { field: 'channel_id_hash', domain: 'slack_channel' }],
                ['principal', { field: 'principal_hash', domain: 'slack_principal' }],
            ]),
            caseless: new Set(),
            scope: null,
            provider: 'slack',
            wholeNumbers: NONE,
        },
    ],
    [
        'workspace_role',
        {
            fields: ['workspace_id_hash', 'principal_hash', 'role'],
            verbs: ['grant', 'change_role', 'invite', 'modify', 'create'],
            hashed: new Map([
                ['workspace_id', { field: 'workspace_id_hash', domain: 'workspace' }],
                ['principal', { field: 'principal_hash', domain: 'workspace_principal' }],
            ]),
            caseless: new Set(),
            scope: null,
            provider: 'workspace',
            wholeNumbers: NONE,
        },
    ],
    // Cloud and identity providers: AWS IAM (CloudTrail), Kubernetes RBAC (the audit log), Okta admin roles (the System Log).
    [
        'aws_iam_access_key',
        tenant('aws', 'account', ['create'], ['user_name_hash'], [['user_name', { field: 'user_name_hash', domain: 'aws_iam_user' }]]),
    ],
    // IAM names a role without regard to case (`PROD-admin` is the role `prod-admin`): a rule's role_name glob ignores it too.
    ['aws_iam_role_policy', tenant('aws', 'account', ['attach'], ['role_name', 'policy_arn'], [], new Set(['role_name']))],
    ['k8s_rbac_binding', tenant('kubernetes', 'cluster', ['create'], ['namespace', 'kind', 'name'])],
    ['idp_admin_role', tenant('okta', 'org', ['grant'], ['principal_id'])],
]);
/** The action classes of the table. */
const KNOWN_CLASSES = [...CLASSES.keys()];
/** A class's row, or undefined when the gate has no binding rule for it. */
const classRow = (actionClass) => CLASSES.get(actionClass);

// EXTERNAL MODULE: ./src/core/json.ts
var core_json = __nccwpck_require__(6153);
;// CONCATENATED MODULE: ./src/core/projection.ts
/**
 * The call subject (action projection) of a decision: {action_class, verb, target} with the target
 * narrowed to the fields bound for its class (the class table: core/classes.ts). `provider` and `read_only` describe the request, not
 * the effect, and are never bound. The github_deploy_key row is byte-compatible with upstream Assay.
 */



/** The verbs the producer writes for each class of the table (a rule naming another verb is a typo unless the input has it). */
const PRODUCER_VERBS = new Map([...CLASSES].map(([c, row]) => [c, row.verbs]));

/** The bound fields of an action class (the class table, core/classes.ts), or undefined when the class has no binding rule. */
const boundFields = (actionClass) => classRow(actionClass)?.fields;
/** Narrow a target to its class's bound fields, copying only those (never spreading the parsed object). */
function narrowTarget(actionClass, target) {
    const fields = boundFields(actionClass);
    if (!fields)
        return undefined;
    const out = {};
    for (const f of fields)
        if ((0,core_json/* hasOwn */.$3)(target, f))
            out[f] = target[f];
    return out;
}
function project(decision) {
    const action = decision['action'];
    if (!(0,core_json/* isObject */.Gv)(action))
        return { kind: 'none', reason: 'action is not an object' };
    const actionClass = action['resource_type'];
    const verb = action['verb'];
    const target = action['target'];
    if (typeof actionClass !== 'string')
        return { kind: 'none', reason: 'action.resource_type is not a string' };
    if (typeof verb !== 'string')
        return { kind: 'none', reason: 'action.verb is not a string' };
    if (!(0,core_json/* isObject */.Gv)(target))
        return { kind: 'none', reason: 'action.target is not an object' };
    const narrowed = narrowTarget(actionClass, target);
    if (!narrowed)
        return { kind: 'none', reason: `action class "${actionClass}" has no binding rule` };
    if (Object.keys(narrowed).length === 0) {
        return { kind: 'none', reason: `target has none of the bound fields (${(boundFields(actionClass) ?? []).join(', ')})` };
    }
    const subject = { action_class: actionClass, verb, target: narrowed };
    const bound = (0,binding/* binding */.Ch)(subject);
    if (!bound.ok)
        return { kind: 'none', reason: `subject cannot be canonicalized: ${bound.reason}` };
    return { kind: 'subject', subject, digest: bound.digest };
}
/**
 * The first number of a decision's would-be subject (its class's bound target fields) that is an
 * integer beyond ±(2^53−1), with its path from the decision and why it is refused, or null. Such a
 * subject is never bound (`project` says so through the binding); a reader rejects the decision at
 * the number's place instead (read/surface.ts). Fields outside the binding are never bound: any
 * number may stand there.
 */
function unsafeSubjectNumber(decision) {
    const action = decision['action'];
    if (!(0,core_json/* isObject */.Gv)(action) || typeof action['resource_type'] !== 'string' || typeof action['verb'] !== 'string')
        return null;
    const target = action['target'];
    const narrowed = (0,core_json/* isObject */.Gv)(target) ? narrowTarget(action['resource_type'], target) : undefined;
    const unsafe = narrowed === undefined ? null : (0,binding/* unsafeInteger */.n0)(narrowed);
    return unsafe === null ? null : { path: ['action', 'target', ...unsafe.path], reason: (0,binding/* unsafeIntegerText */.Aj)(unsafe, 'action.target') };
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
        key += (0,core_json/* hasOwn */.$3)(subject.target, f) ? `\u0000${boundValueText(subject.target[f])}` : '\u0000';
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
    const canonical = (0,binding/* jcs */.vI)(value);
    return canonical.ok ? canonical.text : '\u0000';
}

// EXTERNAL MODULE: ./src/core/vocabulary.ts
var vocabulary = __nccwpck_require__(7063);
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
    trust: null,
};
/** A class or verb as a selector names it: any characters but spaces, controls and the selector's own `:`, `=`, `*`, `,` (a class the input has may be outside ASCII). */
const NAME = /^[^\s\p{Cc}:=*,]+$/u;
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
        if (!(0,vocabulary/* isLevel */.NW)(level)) {
            const near = (0,core_text/* nearestName */.qb)(level, vocabulary/* LEVELS */.A_);
            return {
                ok: false,
                reason: `"${written}": the level must be one of ${vocabulary/* LEVELS */.A_.join(', ')}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
            };
        }
        if (seen.has(selectorText))
            return { ok: false, reason: `"${written}": a second rule for ${selectorText}` };
        seen.add(selectorText);
        rules.push({
            name: selectorText,
            selector: selectorText,
            ...selector,
            target: [],
            level,
            mode: 'enforce',
            signedBy: null,
            at: null,
            classAt: null,
            verbAt: null,
        });
    }
    return { ok: true, value: rules.length === 0 ? policy_NO_POLICY : { ...policy_NO_POLICY, kind: 'require', rules } };
}
/** A plain field's test: one of these globs matches the field whole (without regard to ASCII case when `caseless`). */
function globTest(field, globs, caseless) {
    return { kind: 'glob', field, globs, caseless, patterns: globs.map((glob) => compileGlob(caseless ? (0,core_text/* asciiLower */.F)(glob) : glob)) };
}
/** The value a test reads of a call's target: absent (undefined), or as the call gives it. */
const testedValue = (test, target) => target !== null && Object.hasOwn(target, test.field) ? target[test.field] : undefined;
function testHolds(test, value) {
    if (test.kind === 'hash')
        return test.hashes.has(value);
    const text = test.caseless ? (0,core_text/* asciiLower */.F)(value) : value;
    return test.patterns.some((glob) => globMatches(glob, text));
}
/** What a JSON value is, in words (a field given as something else than text). */
const jsonKind = (v) => Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
const YES = { kind: 'yes' };
const NO = { kind: 'no' };
/**
 * A name the rule gives (class, verb) against the call's: the same, another, or untold: not text, or
 * a name the table knows written by the call in another case (a rule's own odd case is its typo,
 * `rule_unused`'s to say).
 */
function nameTold(rule, call, what, known) {
    if (rule === null || call === rule)
        return YES;
    if (call === null)
        return { kind: 'untold', why: `it gives no ${what} as text, and the rule names one` };
    if ((0,core_text/* asciiLower */.F)(call) === (0,core_text/* asciiLower */.F)(rule) && known.includes(rule) && !known.includes(call))
        return {
            kind: 'untold',
            why: `its ${what} ${JSON.stringify((0,core_text/* visible */.RK)(call))} differs from the rule's ${JSON.stringify(rule)} only in case`,
        };
    return NO;
}
/**
 * Whether a rule applies to a call of this class, verb and target. `untold` when nothing the rule
 * reads rules it out but something it reads the call does not say: a verb that is not text, a class
 * or verb that differs only in case, a field it tests given as something else than text, or, for a rule of a
 * class, a bound field of that class the call does not give (a red team: each such call escaped every
 * rule naming it, to the default). A rule that cannot tell applies, and the call fails (requirements.ts).
 */
function told(rule, call) {
    // A call with no class as text is outside every class's rules (a call of no class: the demo's misc.do_thing).
    if (rule.actionClass !== null && call.actionClass === null)
        return NO;
    const byClass = nameTold(rule.actionClass, call.actionClass, 'action class', KNOWN_CLASSES);
    if (byClass.kind === 'no')
        return NO;
    const byVerb = nameTold(rule.verb, call.verb, 'verb', PRODUCER_VERBS.get(rule.actionClass ?? '') ?? []);
    if (byVerb.kind === 'no')
        return NO;
    let untold = byClass.kind === 'untold' ? byClass : byVerb.kind === 'untold' ? byVerb : null;
    const bound = rule.actionClass === null ? undefined : boundFields(rule.actionClass);
    for (const test of rule.target) {
        const value = testedValue(test, call.target);
        if (value === undefined) {
            if (!bound?.includes(test.field))
                return NO;
            untold ??= { kind: 'untold', why: `its target gives no ${test.field}, which the rule tests` };
        }
        else if (typeof value !== 'string')
            untold ??= { kind: 'untold', why: `its target gives ${test.field} as ${jsonKind(value)}, not text` };
        else if (!testHolds(test, value))
            return NO;
    }
    return untold ?? YES;
}
const ruleMatches = (rule, call) => told(rule, call).kind !== 'no';
/** Why whether a rule applies to a call cannot be told (the call fails), or null when it can. */
function untoldWhy(rule, call) {
    const t = told(rule, call);
    return t.kind === 'untold' ? t.why : null;
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
    // A class in another case than a rule's may be under that rule: `told` says it cannot tell.
    if (!rules)
        index.set(actionClass, (rules = policy.rules.filter((r) => r.actionClass === null ||
            r.actionClass === actionClass ||
            (actionClass !== null && (0,core_text/* asciiLower */.F)(r.actionClass) === (0,core_text/* asciiLower */.F)(actionClass)))));
    return rules;
}
/** The rule for a call (null when none matches): a policy file's first match, else the most specific `require` rule. */
function ruleFor(policy, call) {
    const rules = rulesOfClass(policy, call.actionClass);
    // A rule that cannot tell applies (the caller says why it could not: an error, so neither its
    // level nor a later rule's decides the gate).
    if (policy.kind === 'file') {
        for (const r of rules)
            if (ruleMatches(r, call))
                return r;
        return null;
    }
    let best = null;
    for (const r of rules)
        if (ruleMatches(r, call) !== false && (!best || specificity(r) < specificity(best)))
            best = r;
    return best;
}
/**
 * The rules no call uses, noted call by call as rules are found: in a file, a call uses its first
 * match only (a rule shadowed for every call is unused, and the earlier rule that took the first
 * call it matched is kept to say so); of the `require` input, every rule that matches it.
 */
class RuleUse {
    policy;
    unused;
    /** Of a file's unused rules, those a call matched: the earlier rule that took the first such call. */
    taken = new Map();
    constructor(policy) {
        this.policy = policy;
        this.unused = new Set(policy.rules);
    }
    /** A call a rule could apply to, and the rule `ruleFor` gave it. */
    note(call, rule) {
        if (this.unused.size === 0)
            return;
        if (this.policy.kind === 'file') {
            if (!rule)
                return;
            this.unused.delete(rule);
            this.taken.delete(rule);
            // Every other rule this call matches comes after the one that took it (the first match).
            if (this.taken.size < this.unused.size)
                for (const r of this.unused)
                    if (!this.taken.has(r) && ruleMatches(r, call))
                        this.taken.set(r, rule);
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
    /** For a rule no call used that a call matched: the earlier rule that took the first such call (the first match wins); else null. */
    takenBy(rule) {
        return this.taken.get(rule) ?? null;
    }
    /** Adds what other calls (after this one's) used (`other`: the same policy's rules, perhaps another copy of them: matched by position). */
    merge(other) {
        other.policy.rules.forEach((r, i) => {
            if (other.unused.has(r))
                return;
            const rule = this.policy.rules[i];
            this.unused.delete(rule);
            this.taken.delete(rule);
        });
        if (other.taken.size === 0)
            return;
        const at = new Map(other.policy.rules.map((r, i) => [r, i]));
        const mine = (r) => this.policy.rules[at.get(r) ?? -1];
        for (const [r, by] of other.taken) {
            const rule = mine(r);
            if (this.unused.has(rule) && !this.taken.has(rule))
                this.taken.set(rule, mine(by));
        }
    }
}
/**
 * A typo must not silently turn a requirement off (§7): a rule whose class is neither a class of the
 * §2 table nor a class of the input, or whose verb is neither a verb the producer writes for that
 * class nor a verb of the input for it, is refused, with the nearest known name suggested.
 * @param seen every class of the input, with its verbs
 */
function checkRuleNames(policy, seen, rejected = new Map()) {
    const classes = new Set([...KNOWN_CLASSES, ...seen.keys()]);
    // Every rule's names, all at once (a red team: one misspelt name per run of the gate).
    const problems = [];
    for (const rule of policy.rules) {
        const written = rule.at === null ? `"${rule.selector}=${rule.level}"` : `rule ${rule.name}`;
        if (rule.actionClass === null)
            continue;
        if (!classes.has(rule.actionClass)) {
            const only = rejected.get(rule.actionClass);
            const near = (0,core_text/* nearestName */.qb)(rule.actionClass, classes);
            const why = only
                ? `; the class is only in ${(0,core_text/* visible */.RK)(only)}, a run that is rejected (invalid_artifact): fix that file`
                : near
                    ? `; did you mean ${JSON.stringify(near)}?${lookAlike(rule.actionClass, near)}`
                    : `; classes: ${(0,core_text/* visible */.RK)([...classes].sort(core_text/* cmp */.r2).join(', '))}`;
            problems.push({
                rule,
                at: rule.classAt ?? rule.at,
                message: `${written}: no action class ${JSON.stringify(rule.actionClass)} (neither a class the gate binds nor one in the input)${why}`,
            });
            continue;
        }
        if (rule.verb !== null) {
            const verbs = new Set([...(PRODUCER_VERBS.get(rule.actionClass) ?? []), ...(seen.get(rule.actionClass) ?? [])]);
            if (!verbs.has(rule.verb)) {
                const near = (0,core_text/* nearestName */.qb)(rule.verb, verbs);
                problems.push({
                    rule,
                    at: rule.verbAt ?? rule.at,
                    message: `${written}: no verb ${JSON.stringify(rule.verb)} for ${rule.actionClass} (neither one the producer writes nor one in the input)${near ? `; did you mean ${JSON.stringify(`${rule.actionClass}:${near}`)}?` : verbs.size > 0 ? `; verbs: ${(0,core_text/* visible */.RK)([...verbs].sort(core_text/* cmp */.r2).join(', '))}` : ''}`,
                });
            }
        }
    }
    return problems.length === 0 ? { ok: true } : { ok: false, reason: problems };
}
/** Where a name differs from the nearest only by a character outside ASCII (a look-alike: Cyrillic е for e), which one. */
function lookAlike(name, near) {
    const odd = [...name].find((c) => (c.codePointAt(0) ?? 0) > 0x7f && !near.includes(c));
    if (odd === undefined)
        return '';
    const code = (odd.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return ` (it holds U+${code}, a character outside ASCII that looks like a letter of it)`;
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
/**
 * Whether every call `inner` (a later rule's test) lets through on its field, `outer` (an earlier
 * rule's) lets through too. A call that gives the field as something else than text, or leaves a
 * field out, is told the same by both (the rules are of one class). Hashed: inner's hashes are
 * among outer's. Plain: each inner glob is covered by one outer glob (`globCovers`; several outer
 * globs that cover it only together are not seen: unsure is no). A caseless outer (owner, repo) is
 * matched against the value lowered, so inner's globs are lowered too; a case-sensitive outer never
 * covers a caseless inner (`PROD-api` reaches the inner, not the outer).
 */
function testCovers(outer, inner) {
    if (outer.field !== inner.field)
        return false;
    if (outer.kind === 'hash')
        return inner.kind === 'hash' && [...inner.hashes].every((h) => outer.hashes.has(h));
    if (inner.kind !== 'glob' || (inner.caseless && !outer.caseless))
        return false;
    return inner.globs.every((glob) => {
        const value = outer.caseless ? (0,core_text/* asciiLower */.F)(glob) : glob;
        return outer.patterns.some((pattern) => globCovers(pattern, value));
    });
}
/**
 * The earlier rule of a file that matches every call `later` matches (docs/policy.md §11), so that
 * `later` can never apply (the first match wins): same class; no verb or the same; every target
 * field the earlier tests, the later tests too, and each value the later lets through the earlier
 * does (`testCovers`: `prod-*` before `[prod-api]`); no `signed-by` on the earlier that the later
 * lacks. Sound, never complete: a rule named here is reached by no call.
 */
function shadowing(earlier, later) {
    for (const e of earlier) {
        if (e.actionClass !== later.actionClass)
            continue;
        if (e.verb !== null && e.verb !== later.verb)
            continue;
        if (e.signedBy !== null && later.signedBy === null)
            continue;
        if (!e.target.every((t) => later.target.some((u) => testCovers(t, u))))
            continue;
        return e;
    }
    return null;
}

;// CONCATENATED MODULE: ./src/core/call.ts
const callRef = (c) => ({ artifact: c.run.artifact, index: c.input.index, line: c.input.loc.line, order: c.order });
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
/**
 * A registry's names in its order, and the name a user gave looked up among them (in a Map: text
 * from argv or a file never indexes the table itself): the one lookup of every registry of kinds.
 */
function namesOf(table) {
    const names = Object.keys(table);
    const byName = new Map(names.map((k) => [k, k]));
    return { names, named: (name) => byName.get(name) ?? null };
}

// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __nccwpck_require__(2334);
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
/** What a provider's statement `owner` is: GitHub's organisation, else the tenant field its classes are scoped by (account, cluster, org). */
function tenantWord(provider) {
    if (provider === 'github')
        return 'organisation';
    for (const row of CLASSES.values())
        if (row.provider === provider && row.scope && row.scope.repo === null)
            return row.scope.owner;
    return 'tenant';
}
/** A statement's scope in words: its repositories, its organisation, or its provider's whole log. */
function scopeText(s) {
    if (s.repos !== null)
        return s.repos.length === 1 ? `repository ${s.repos[0]}` : `repositories ${s.repos.join(', ')}`;
    if (s.owner !== null)
        return `${tenantWord(s.provider)} ${s.owner}`;
    return s.provider === 'github' ? 'no repository (it names no organisation or repository)' : 'the whole log';
}
/** The window in words, `[since, until)`. */
const windowText = (s) => `[${(0,core_time/* rfc3339 */.ag)(s.since)}, ${(0,core_time/* rfc3339 */.ag)(s.until)})`;
const plus = (t, seconds) => ({ seconds: t.seconds + seconds, fraction: t.fraction });
/** The owner and repository of a subject (the fields a statement's scope reads, from the class table), and its providers. */
function whereIn(actionClass, target, providers) {
    const scope = classRow(actionClass)?.scope;
    const ownerValue = scope && (0,core_json/* hasOwn */.$3)(target, scope.owner) ? target[scope.owner] : undefined;
    const repoValue = scope?.repo && (0,core_json/* hasOwn */.$3)(target, scope.repo) ? target[scope.repo] : undefined;
    // An empty text names no owner or repository: as absent.
    const owner = typeof ownerValue === 'string' && ownerValue !== '' ? (0,core_text/* asciiLower */.F)(ownerValue) : null;
    const repo = typeof repoValue === 'string' && repoValue !== '' ? (0,core_text/* asciiLower */.F)(repoValue) : null;
    return { providers, owner, repo };
}
/** The provider a call names, if it names one. */
const namedProvider = (call) => (typeof call.input.provider === 'string' ? call.input.provider : null);
/**
 * A call's place (null: it has no subject). The logs that may hold its side effect: a call that
 * names a provider, its class's provider's and the one it names (a producer may name the provider as
 * an importer's records do, a Slack import's `--role-provider slack`, and a name it gets wrong,
 * `GitHub`, still leaves it held to its class's: a red team's call naming `GitHub` was covered by no
 * GitHub export, and passed); a call that names none, every provider's (docs/coverage.md §2: the
 * provider matches when the call names one), as any provider's record may verify it (a red team: a
 * call naming none escaped a Slack export that a Slack record would have bound it from).
 */
function whereOf(call) {
    const p = call.input.projection;
    if (p.kind !== 'subject')
        return null;
    const own = classRow(p.subject.action_class)?.provider ?? null;
    const named = namedProvider(call);
    const providers = named === null ? [] : [own, named].filter((x) => x !== null);
    return whereIn(p.subject.action_class, p.subject.target, providers);
}
/** The providers the calls name, by class. */
function providersNamed(calls) {
    const named = new Map();
    for (const call of calls) {
        const p = call.input.projection;
        if (p.kind !== 'subject')
            continue;
        let entry = named.get(p.subject.action_class);
        if (!entry)
            named.set(p.subject.action_class, (entry = { names: new Set(), unnamed: false }));
        const provider = namedProvider(call);
        if (provider !== null)
            entry.names.add(provider);
        else
            entry.unnamed = true;
    }
    return named;
}
function scopeOf(st) {
    if (st.actors.length === 0)
        return null;
    return {
        provider: st.provider,
        repos: st.repos === null ? null : new Set(st.repos.map(core_text/* asciiLower */.F)),
        owner: st.owner === null ? null : (0,core_text/* asciiLower */.F)(st.owner),
    };
}
/** Whether a scope holds a place (docs/coverage.md §2). */
function holds(scope, where) {
    if (where.providers.length > 0 && !where.providers.includes(scope.provider))
        return false;
    if (scope.repos !== null)
        return where.owner !== null && where.repo !== null && scope.repos.has(`${where.owner}/${where.repo}`);
    if (scope.owner !== null)
        return where.owner === scope.owner;
    // A GitHub export came from one organisation or repository: a statement naming neither covers
    // no GitHub subject (docs/coverage.md §2, §6). Other providers' logs are one workspace's whole log.
    return scope.provider !== 'github';
}
/**
 * Why a statement covers none of what it names, or null: no actor, a GitHub statement with no
 * organisation or repository, an action of no class the gate binds, a verb its class does not have,
 * or another provider than its class's when the class's calls all name a provider and none names
 * it (`named`: providersNamed; an importer may name a class's provider otherwise, as Slack's
 * `--role-provider` does, and covers the calls that name it so, and a call naming none is held to
 * every provider's statements). Valid statements all (docs/coverage.md §5: an empty
 * actors list covers nothing), but never quiet: a hand-written or edited one would check nothing.
 */
function coversNothing(st, named) {
    if (st.actors.length === 0)
        return 'its actors list is empty: it covers no call';
    if (st.provider === 'github' && st.repos === null && st.owner === null)
        return 'it names no organisation (owner) or repository (repos): a GitHub statement covers no call then';
    for (const action of st.actions) {
        const [actionClass = '', verb = ''] = action.split(':');
        const row = classRow(actionClass);
        if (!row)
            return `its action ${JSON.stringify(action)} names no class the gate binds: it covers no call of it`;
        if (!row.verbs.includes(verb))
            return `its action ${JSON.stringify(action)} names no verb of ${actionClass} (${row.verbs.join(', ')}): it covers no call of it`;
        const calling = named.get(actionClass);
        if (row.provider !== st.provider && calling !== undefined && !calling.unnamed && !calling.names.has(st.provider))
            return `its provider ${JSON.stringify(st.provider)} is not ${actionClass}'s (${row.provider}), and no call of it names ${JSON.stringify(st.provider)}: it covers no call of it`;
        // The scope the class's calls are placed by (holds): a repository list where the class has no
        // repository, an owner where its provider's log is one workspace's, or an empty list, holds none.
        if (st.repos !== null && (st.repos.length === 0 || row.scope === null || row.scope.repo === null))
            return st.repos.length === 0
                ? 'its repos list is empty: it covers no call'
                : `it names repositories, which ${actionClass} has none of: it covers no call of it`;
        if (st.owner !== null && row.scope === null)
            return `it names an owner, which ${actionClass}'s log (one workspace's) has none of: it covers no call of it`;
    }
    return null;
}
/** The usable statements, indexed; the calls' coverage is asked one by one. */
class Coverage {
    pendingSeconds;
    now;
    groups = new Map();
    /** The usable statements, each once (an export committed twice counts once). */
    usable;
    /** The usable statements by file, made when a record first asks (records wait on their own file's statements). */
    byFile = null;
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
            const sc = scopeOf(st);
            if (sc === null)
                continue;
            const { repos, owner } = sc;
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
    groupsOf(call, where) {
        const p = call.input.projection;
        if (p.kind !== 'subject' || !where)
            return [];
        const list = this.groups.get(`${p.subject.action_class}:${p.subject.verb}`) ?? [];
        return list.filter((g) => holds(g, where));
    }
    /**
     * A call not covered whose target lacks, as text, a field that a scoped statement of its action
     * and provider compares, where that statement could have spoken of its time (its window holds the
     * time, or the call is newer than every statement of the scope), or null. Never quiet: a call
     * without its owner would otherwise fall outside every export of its organisation (a red team).
     * A statement that covers nothing (repositories for a class without them) places nothing.
     */
    unplaced(call, time, where) {
        const p = call.input.projection;
        const scope = p.kind === 'subject' ? classRow(p.subject.action_class)?.scope : null;
        // Nothing missing (the common case): nothing to look up.
        if (p.kind !== 'subject' || !where || !scope || (where.owner !== null && (scope.repo === null || where.repo !== null)))
            return null;
        for (const g of this.groups.get(`${p.subject.action_class}:${p.subject.verb}`) ?? []) {
            if (where.providers.length > 0 && !where.providers.includes(g.provider))
                continue;
            const byRepo = g.repos !== null;
            if (byRepo && scope.repo === null)
                continue; // repositories for a class without them: it covers nothing
            const missing = where.owner === null && (byRepo || g.owner !== null) ? scope.owner : byRepo && where.repo === null ? scope.repo : null;
            if (missing === null)
                continue;
            const reaches = g.statements.find((s) => (0,core_time/* compareInstants */.QI)(s.statement.since, time) <= 0 && (0,core_time/* compareInstants */.QI)(time, s.statement.until) < 0);
            const last = g.statements[g.latestAt[g.statements.length - 1] ?? -1];
            const statement = reaches ?? (last && (0,core_time/* compareInstants */.QI)(time, last.statement.until) >= 0 ? last : null);
            if (statement)
                return { kind: 'unplaced', field: missing, statement };
        }
        return null;
    }
    /** What coverage says about a call that asserts a side effect and was allowed (`time`: its decision's). */
    of(call, time) {
        if (time === null)
            return { kind: 'none' };
        // Every call from the future, whatever it claims (a read from the future would confirm a write): docs/coverage.md §3.
        if (this.now !== null && (0,core_time/* compareInstants */.QI)(time, plus(this.now, FUTURE_GRACE_SECONDS)) > 0)
            return { kind: 'future' };
        if (!call.claim.asserted || call.input.denied)
            return { kind: 'none' };
        const where = whereOf(call);
        const groups = this.groupsOf(call, where);
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
        const unplaced = this.unplaced(call, time, where);
        if (unplaced)
            return unplaced;
        const newest = latest === null || (0,core_time/* compareInstants */.QI)(time, latest.statement.until) >= 0;
        const until = plus(time, this.pendingSeconds);
        if (newest && this.now !== null && (0,core_time/* compareInstants */.QI)(this.now, until) < 0)
            return { kind: 'pending', latest, until };
        return { kind: 'uncovered', scoped: groups.length > 0 };
    }
    /**
     * Until when a record that binds no call waits for its run (docs/policy.md §12): its own file holds
     * a usable statement of its scope (provider, action, an actor named, the record's repository or
     * organisation as a call's is compared) whose window has ended and whose `until` is less than
     * `pending` before the verification time. Null: it does not wait (no such statement, no pending,
     * or it has run out).
     */
    recordWaits(record) {
        const now = this.now;
        if (now === null || this.pendingSeconds === 0)
            return null;
        const { action_class, verb, target } = record.record.subject;
        const action = `${action_class}:${verb}`;
        const where = whereIn(action_class, target, [record.record.provider]);
        let latest = null;
        if (this.byFile === null) {
            // Each usable statement with its scope, made once (a record asks about its file's statements).
            this.byFile = new Map();
            for (const s of this.usable) {
                const entry = { s, scope: scopeOf(s.statement) };
                const list = this.byFile.get(s.loc.file);
                if (list)
                    list.push(entry);
                else
                    this.byFile.set(s.loc.file, [entry]);
            }
        }
        for (const { s, scope } of this.byFile.get(record.loc.file) ?? []) {
            // A statement of its scope (its provider and action, an actor named, its repository or organisation) ...
            if (scope === null || !s.statement.actions.includes(action) || !holds(scope, where))
                continue;
            // ... whose window has ended: one that ends after the verification time vouches for no hour yet to come.
            if ((0,core_time/* compareInstants */.QI)(s.statement.until, plus(now, FUTURE_GRACE_SECONDS)) > 0)
                continue;
            const until = plus(s.statement.until, this.pendingSeconds);
            if (latest === null || (0,core_time/* compareInstants */.QI)(until, latest) > 0)
                latest = until;
        }
        return latest !== null && (0,core_time/* compareInstants */.QI)(now, latest) < 0 ? latest : null;
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
    const bound = input.recomputed;
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
    const buckets = new Map();
    records.forEach((record, i) => {
        if (!isUsable(record))
            return;
        const provider = record.input.record.provider;
        const b = buckets.get(record.check.recomputed);
        if (!b) {
            buckets.set(record.check.recomputed, { all: { recs: [i], next: 0 }, provider, byProvider: null });
            return;
        }
        b.all.recs.push(i);
        if (b.byProvider === null && provider === b.provider)
            return;
        // The first record of another provider: the lists by provider begin, with the records so far (all of the first).
        b.byProvider ??= new Map([[b.provider, { recs: b.all.recs.slice(0, -1), next: 0 }]]);
        const p = b.byProvider.get(provider);
        if (p)
            p.recs.push(i);
        else
            b.byProvider.set(provider, { recs: [i], next: 0 });
    });
    const used = new Uint8Array(records.length);
    const out = new Array(claimants.length);
    /** The records a claimant may take: every one of its subject's, or those of the provider it names. */
    const listOf = (claimant) => {
        const b = buckets.get(claimant.digest);
        if (!b || claimant.provider === null)
            return b?.all;
        if (b.byProvider !== null)
            return b.byProvider.get(claimant.provider);
        return claimant.provider === b.provider ? b.all : undefined;
    };
    const serve = (claimant, k) => {
        const list = listOf(claimant);
        if (!list)
            return;
        // Records before `next` are all used: skip them once, not once per call; the first unused one is the call's.
        while (list.next < list.recs.length && used[list.recs[list.next]] === 1)
            list.next++;
        if (list.next === list.recs.length)
            return;
        const i = list.recs[list.next];
        used[i] = 1;
        out[k] = records[i];
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
        const fields = boundFields(actionClass);
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
const valueKey = (v) => typeof v === 'string' ? { isString: true, key: v } : { isString: false, key: boundValueText(v) };
/** Whether two targets agree on field `f` (both absent, or equal values by `valueKey`). */
function sameField(left, right, file) {
    const has = (0,core_json/* hasOwn */.$3)(left, file);
    if (has !== (0,core_json/* hasOwn */.$3)(right, file))
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
                if ((0,core_json/* hasOwn */.$3)(target, name)) {
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
        return this.fields.map((f, i) => ((0,core_json/* hasOwn */.$3)(target, f) ? this.valueId(i, target[f], intern) : 0));
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
                snag = holder
                    ? { kind: 'taken', record, holder: callRef(holder) }
                    : { kind: 'other_provider', record, callProvider: provider ?? '' };
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
    const narrowed = narrowTarget(action_class, target);
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
    const sameSubject = new Map();
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
            // One answer per subject and provider (the allocation is done): many records of one subject read its calls once (a red team: quadratic).
            const key = `${digest}\u0000${record.input.record.provider}`;
            const known = sameSubject.get(key);
            if (known)
                return known;
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
            const found = { kind: 'same_subject', otherProvider, ineligible, verified };
            sameSubject.set(key, found);
            return found;
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
 * read of the same target in the same run, decided after it and begun after it was decided where
 * the run says when (`confirms`). Nothing else promotes a call. Why a call earned no more,
 * and why a record bound nothing, are diagnosed in diagnose.ts; nothing downstream searches again.
 */




const READ_VERBS = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);
/** Later reads of one verb that cannot confirm a write looked past before the search stops: a crafted run never makes it quadratic. */
const READS_LOOKED_PAST = 64;
// `replayed`: a record of the call's subject verifies the same decision read from another copy of its
// run (below), so an export's silence says nothing of it (docs/coverage.md §3). Decided here, where
// every call is known: an outcome names other calls by value only (CallRef), never holds them.
/** Runs found to hold the same decisions, or not (a pair is compared once). */
const sameRuns = new WeakMap();
/** Whether two runs hold the same decisions in the same order (one run file committed twice): each decision's time, tool, effect, status and subject. */
function sameDecisions(a, b) {
    let known = sameRuns.get(a);
    const hit = known?.get(b);
    if (hit !== undefined)
        return hit;
    const same = a.decisions.length === b.decisions.length &&
        a.decisions.every((x, i) => {
            const y = b.decisions[i];
            if (!y || x.tool !== y.tool || x.denied !== y.denied || x.succeeded !== y.succeeded)
                return false;
            if ((x.time === null) !== (y.time === null) || (x.time && y.time && (0,core_time/* compareInstants */.QI)(x.time, y.time) !== 0))
                return false;
            const px = x.projection;
            const py = y.projection;
            return px.kind === 'subject' ? py.kind === 'subject' && px.digest === py.digest : py.kind === px.kind;
        });
    if (!known)
        sameRuns.set(a, (known = new WeakMap()));
    known.set(b, same);
    return same;
}
/**
 * The same decision read twice: a run file committed twice (or a bundle and its events) holds the
 * same decisions in the same order; the call at the same place of the other copy is this one, not a
 * second effect. Another run that merely has a call at the same index and time is not a replay.
 */
const replayOf = (call, other) => call.run !== other.run &&
    call.input.index === other.input.index &&
    call.input.time !== null &&
    other.input.time !== null &&
    (0,core_time/* compareInstants */.QI)(call.input.time, other.input.time) === 0 &&
    sameDecisions(call.run, other.run);
/**
 * Why a read later in the run than a write does not confirm it, or null when it does (§5): when the
 * write says when it was decided, the read must say so too (a red team: an event without `time`, or
 * a plain surface line in a server log, confirmed a timed write), and (each its own line) its time
 * must be after the write's; when the read says when its request began, that must be after the write
 * was decided (a read begun before ran alongside it).
 */
function unconfirmedBy(write, read) {
    const decided = write.time;
    if (decided === null)
        return null;
    // Two decisions of one evidence event share the event's time, which orders neither: their order in it does.
    const oneStamp = read.loc.line === write.loc.line && read.loc.member === write.loc.member && read.loc.file === write.loc.file;
    if (read.time === null)
        return 'untimed';
    if (!oneStamp && (0,core_time/* compareInstants */.QI)(read.time, decided) <= 0)
        return 'decided_before';
    if (read.begun !== null && (0,core_time/* compareInstants */.QI)(read.begun, decided) <= 0)
        return 'begun_before';
    return null;
}
/** The first read in `reads` (in run order) after position `index`, or reads.length. */
function firstAfter(reads, index) {
    let lo = 0;
    let hi = reads.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (reads[mid].index <= index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
/**
 * For each eligible call of one run, the first later successful read of the same target with another
 * verb that confirms it (`unconfirmedBy`); for a call that has later reads of its target but none
 * confirms it, why (the earliest such read). Per verb, at most READS_LOOKED_PAST reads are looked past.
 */
function confirmations(run, out, why) {
    // A denied read never confirms anything (§5), whatever status it reports.
    const isRead = (c) => c.input.projection.kind === 'subject' && READ_VERBS.has(c.input.projection.subject.verb) && c.input.succeeded && !c.input.denied;
    // Every successful read by target and verb, in run order (at most the seven read verbs per target).
    const reads = new Map();
    for (const call of run) {
        const projection = call.input.projection;
        if (projection.kind !== 'subject' || !isRead(call))
            continue;
        const key = targetKey(projection.subject);
        let verbs = reads.get(key);
        if (!verbs)
            reads.set(key, (verbs = new Map()));
        const list = verbs.get(projection.subject.verb);
        if (list)
            list.push(call.input);
        else
            verbs.set(projection.subject.verb, [call.input]);
    }
    if (reads.size === 0)
        return;
    for (const call of run) {
        const projection = call.input.projection;
        if (!call.eligibility.ok || projection.kind !== 'subject')
            continue;
        const verbs = reads.get(targetKey(projection.subject));
        if (!verbs)
            continue;
        const write = call.input;
        let best = null;
        let first = null;
        let skipped = 0;
        let capped = false;
        for (const [verb, list] of verbs) {
            if (verb === projection.subject.verb)
                continue;
            let passed = 0;
            for (let k = firstAfter(list, write.index); k < list.length; k++) {
                const read = list[k];
                if (best !== null && read.index >= best.index)
                    break;
                const no = unconfirmedBy(write, read);
                if (no === null) {
                    best = read;
                    break;
                }
                skipped++;
                if (first === null || read.index < first.read.index)
                    first = { read, why: no };
                if (++passed >= READS_LOOKED_PAST) {
                    capped ||= k + 1 < list.length;
                    break;
                }
            }
        }
        if (best)
            out[call.order] = best;
        else if (first !== null && write.time !== null)
            why[call.order] = { read: first.read, why: first.why, decided: write.time, skipped, capped };
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
    const unconfirmed = new Array(calls.length);
    for (const run of runs)
        confirmations(run, confirmed, unconfirmed);
    const diagnose = diagnoser(calls, records, allocated);
    const replayed = (call, why) => why.snags.some((s) => s.kind === 'taken' && replayOf(call, calls[s.holder.order]));
    const outcomes = calls.map((call) => outcomeOf(call, allocated[call.order], confirmed[call.order], unconfirmed[call.order] ?? null, diagnose.noRecord, replayed));
    return { outcomes, records: diagnose.verdicts() };
}
function outcomeOf(call, record, read, unconfirmed, noRecord, replayedFor) {
    if (!call.claim.asserted)
        return { level: null };
    if (record)
        return { level: 'verified', record, read: read ?? null };
    const eligibility = call.eligibility;
    if (!eligibility.ok)
        return { level: 'asserted', why: { kind: 'ineligible', reason: eligibility.reason }, replayed: false, unconfirmed: null };
    const notVerified = noRecord(eligibility.digest, eligibility.provider);
    const replayed = replayedFor(call, notVerified);
    return read
        ? { level: 'observed_confirmed', read, notVerified, replayed }
        : { level: 'asserted', why: notVerified, replayed, unconfirmed };
}

;// CONCATENATED MODULE: ./src/core/explain.ts
/**
 * Outcomes and verdicts in words. Everything here reads a reason the ladder made (core/ladder.ts);
 * nothing searches calls or records again. Untrusted text is quoted clipped (`quote`), and a reason
 * names at most a few records, so no message grows with the input.
 */







const explain_at = (d) => `line ${d.loc.line}`;
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
const callName = (c) => `${c.artifact} decision ${c.index} (line ${c.line})`;
/** How a call is named in its own findings: its tool (or "decision") and its index. */
const callTitle = (c) => `${c.input.tool === null ? 'decision' : (0,core_text/* quote */.hD)(c.input.tool)} (decision ${c.input.index})`;
const NO_EFFECT = 'the call asserts no side effect (side_effect_asserted is false): it has no rung';
/** Why a call earned no observed_confirmed: the one wording, in reasons and in findings. */
const NO_READ = 'no later successful read of the same target in this run';
/** Why no later read confirmed a call (`unconfirmed`: the later reads of its target there are, and why they do not), in reasons and in findings. */
function noReadText(unconfirmed) {
    if (unconfirmed === null)
        return NO_READ;
    const { read, decided } = unconfirmed;
    const why = unconfirmed.why === 'decided_before'
        ? `was decided at ${read.time ? (0,core_time/* rfc3339 */.ag)(read.time) : '?'}, not after this call (${(0,core_time/* rfc3339 */.ag)(decided)})`
        : unconfirmed.why === 'untimed'
            ? `says no time, so nothing shows it came after this call (decided ${(0,core_time/* rfc3339 */.ag)(decided)}): give each event its time`
            : `began at ${read.begun ? (0,core_time/* rfc3339 */.ag)(read.begun) : '?'}, before this call was decided (${(0,core_time/* rfc3339 */.ag)(decided)}): it ran alongside the call and may have read the state before it`;
    const others = unconfirmed.skipped - 1;
    const more = others > 0 ? `; ${others} more later read(s) of it cannot confirm it either` : '';
    const capped = unconfirmed.capped ? `; reads past the first ${READS_LOOKED_PAST} of one verb are not looked at` : '';
    return `no later successful read of the same target in this run confirms it: the read at ${explain_at(read)} ${why}${more}${capped}`;
}
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
            return `confirmed by a later read at ${explain_at(outcome.read)}; not verified: ${noRecordText(outcome.notVerified, false)}`;
        case 'asserted':
            if (outcome.why.kind === 'ineligible')
                return outcome.why.reason;
            if (outcome.unconfirmed !== null)
                return `${noRecordText(outcome.why, false)}; ${noReadText(outcome.unconfirmed)}`;
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
                parts.push(`its subject matches ${callName(callRef(unmatched.otherProvider))} but the call targets provider "${(0,core_text/* quote */.hD)(unmatched.otherProvider.eligibility.provider ?? '')}", not "${provider}"`);
            }
            if (unmatched.ineligible)
                parts.push(`its subject matches ${callName(callRef(unmatched.ineligible))}, which cannot be verified: ${unmatched.ineligible.eligibility.reason}`);
            if (unmatched.verified)
                parts.push(`${callName(callRef(unmatched.verified.call))} is already verified by ${recordName(unmatched.verified.record)} (one audit entry vouches for one call only)`);
            return parts.join('; ');
        }
        case 'nearest':
            return `no call has its subject ${explain_short(record.input.record.binding_digest)}; nearest is ${callName(callRef(unmatched.call))}, whose target differs in ${fieldList(unmatched.differ)}${caseOnly(unmatched, record) ? ': only in letter case (GitHub names are case-insensitive; the binding is not)' : ''}`;
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
function effectNotLoggedText(call, s, unusable) {
    const at = call.input.time ? ` at ${(0,core_time/* rfc3339 */.ag)(call.input.time)}` : '';
    // Records of its subject that cannot bind it (a copy of one another call holds, another provider's, untrusted) are no entry for it.
    const which = unusable ? ' that can bind it (the records of its subject cannot: see its reason)' : '';
    return `${callTitle(call)}${targetWords(call)}${at} claims a side effect; ${exportWords(s)} holds no entry for it${which} (${(0,core_findings/* placeOf */.$t)(s.loc)}). Was it done under another identity?`;
}
/** pending: the call's export is not due yet. */
function pendingText(call, latest, until) {
    const at = call.input.time ? ` at ${(0,core_time/* rfc3339 */.ag)(call.input.time)}` : '';
    const last = latest
        ? `the latest export of its scope (${(0,core_findings/* placeOf */.$t)(latest.loc)}) ends ${(0,core_time/* rfc3339 */.ag)(latest.statement.until)}`
        : 'no export of its scope is committed yet';
    return `${callTitle(call)}${at}: its export is not due yet (${last}); its requirement waits until ${(0,core_time/* rfc3339 */.ag)(until)}, then an export must cover it`;
}

// EXTERNAL MODULE: ./src/core/trust.ts
var core_trust = __nccwpck_require__(9597);
;// CONCATENATED MODULE: ./src/core/verdicts.ts
/**
 * Verdicts (§6, §7): what each call's claim, each call's required level and each record's fate mean
 * for the gate. A call's findings compare its claim (or its requirement) with its outcome and give
 * only the reasons that concern that claim; each call's report carries its own findings, so no
 * reporter re-derives them. A record that does not bind a call is always reported with its reason.
 */







/** What an unmatched record means when the export is scoped to the agent (docs/importers.md, "Catching what an agent did not report"). */
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
            return needed === 'verified' ? notVerifiedText(outcome.why, true) : noReadText(outcome.unconfirmed);
    }
}
/** How a requirement is named in a finding: a `require` rule by its selector, a file's rule by its name, else the default. */
function requirementName(requirement) {
    const rule = requirement.rule;
    if (rule === null)
        return "the policy's default";
    return rule.at === null ? rule.selector : `rule ${rule.name} (${rule.selector})`;
}
/**
 * Whether no record binds the call, in what an export's silence speaks to (docs/coverage.md §3: "no
 * record binding it"): whatever records of its subject exist verified another call (one logged entry
 * covers one effect, §6), are a copy of one, another provider's, or unusable (untrusted, inconsistent).
 * None of those is an entry for this call. Only a replay of the call that holds the entry is excused.
 */
const unrecorded = (outcome) => (outcome.level === 'asserted' || outcome.level === 'observed_confirmed') && !outcome.replayed && noRecordOf(outcome) !== null;
/** Why an eligible call that asserts a side effect got no record, or null (verified, ineligible, no rung). */
const noRecordOf = (outcome) => {
    const why = outcome.level === 'asserted' ? outcome.why : outcome.level === 'observed_confirmed' ? outcome.notVerified : null;
    return why !== null && why.kind === 'no_record' ? why : null;
};
/** Whether records of the call's subject exist that are not another call's (a copy, another provider's, unusable). */
const unusableSnags = (outcome) => {
    const why = noRecordOf(outcome);
    return why !== null && (why.snags.some((s) => s.kind !== 'taken') || [...why.more.keys()].some((k) => k !== 'taken'));
};
/** A call's coverage, judged against what it earned. */
function coverageVerdict(coverage, outcome) {
    switch (coverage.kind) {
        case 'covered':
            return unrecorded(outcome) ? { kind: 'not_logged', statement: coverage.statement } : coverage;
        case 'pending':
            return unrecorded(outcome) ? coverage : { kind: 'none' };
        case 'uncovered':
            return coverage.scoped && outcome.level !== 'verified' ? { kind: 'uncovered' } : { kind: 'none' };
        case 'unplaced':
            return outcome.level === 'verified' ? { kind: 'none' } : coverage;
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
    if (requirement.untold !== undefined && requirement.rule)
        out.push((0,core_findings/* finding */.gk)('invalid_artifact', input.loc, `${where}: whether rule ${(0,core_text/* quote */.hD)(requirement.rule.name)} applies cannot be told (${requirement.untold}), so the call fails`));
    if (level === null)
        return out;
    // One fact, one finding: a call claiming verified that an export covered without a record is verified_not_reproduced, with that reason.
    const notLogged = coverage.kind === 'not_logged' ? effectNotLoggedText(call, coverage.statement, unusableSnags(outcome)) : null;
    if (notLogged !== null && claim.level !== 'verified')
        out.push((0,core_findings/* finding */.gk)('effect_not_logged', input.loc, notLogged));
    if (coverage.kind === 'pending')
        out.push((0,core_findings/* finding */.gk)('pending', input.loc, pendingText(call, coverage.latest, coverage.until)));
    if (coverage.kind === 'unplaced')
        out.push((0,core_findings/* finding */.gk)('invalid_artifact', input.loc, `${where}: its target gives no ${coverage.field} as text, and the coverage statements of its action are scoped by it (${coverage.statement.loc.file}:${coverage.statement.loc.line}): none can say whether its side effect was logged`));
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
        else if (claim.digest !== subject) {
            // What was not reproduced: the digest the claim names (or that it names none) against the write's
            // subject, whatever the call earned (a record verifying it later does not make its claim right).
            const why = claim.digest === null
                ? `${where} claims observed_confirmed but names no verification_subject_digest: ${level === 'observed_confirmed' ? "the read confirmed the write's target, but " : ''}the claim does not say which subject it confirmed (the write's subject recomputes to ${subject}; the producer must write that digest)`
                : `${where} claims verification_subject_digest ${claim.digest} but the write's subject recomputes to ${subject}`;
            out.push((0,core_findings/* finding */.gk)('observed_confirmed_not_reproduced', input.loc, why, severity));
        }
    }
    // A call that earned more than it claims (verified by a later export: the normal state with nightly
    // exports) is counted once for the whole report (verify.ts underClaimed), never a finding per call.
    const required = requirement.level;
    if (required === null || shortfall.kind === 'met')
        return out;
    const name = requirementName(requirement);
    if (shortfall.kind === 'excused') {
        const e = shortfall.exception;
        out.push((0,core_findings/* finding */.gk)('policy_excepted', input.loc, `${where}: ${name} requires ${required}; earned ${level}; excused by the exception at ${(0,core_findings/* placeOf */.$t)(e.at)} (owner ${(0,core_text/* quote */.hD)(e.owner, 100)}, reason ${JSON.stringify((0,core_text/* quote */.hD)(e.reason, 200))}, until ${e.expiresText})${e.onlyIn ? '; added by this pull request, it applies now: it excuses a call already on the base with the same bytes' : ''}`));
        return out;
    }
    // One fact, one finding (docs/policy.md §11): a call the export never logged is that error alone.
    if (notLogged !== null)
        return out;
    let why;
    if (!(0,vocabulary/* below */.Gz)(level, required)) {
        const wants = (requirement.rule?.signedBy ?? []).join(', ');
        why = `the record that verified it was vouched for by ${shortfall.voucher ?? 'no checked signer'}; the rule wants one of ${wants}`;
    }
    else {
        // One fact, one finding (§6): when the claim's own finding already gives this reason, refer to it.
        const said = out.find((f) => 'shortfall' in core_findings/* FINDINGS */.TG[f.code] && claim.level === required && f.severity === 'error');
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
        // A call the export never logged fails on that alone: its shortfall is not counted again.
        below_required: shortfall.kind === 'short' && requirement.mode !== 'warn' && coverage.kind !== 'not_logged',
        warned: shortfall.kind === 'short' && requirement.mode === 'warn' && coverage.kind !== 'not_logged',
        pending: coverage.kind === 'pending',
        effect_not_logged: coverage.kind === 'not_logged',
        suppressed: suppressedOf(call, outcome, requirement, shortfall),
    };
}
/** The words of a record's finding (the code comes from the outcome table). */
function recordMessage(verdict, name, options) {
    if (verdict.outcome === 'bound')
        return null;
    if (verdict.outcome === 'unmatched') {
        // No call of its subject at all: a run is missing more likely than a hash is wrong (docs/policy.md §12).
        const why = verdict.why;
        const missing = why.kind === 'no_call' || (why.kind === 'nearest' && why.differ.some((f) => f !== 'owner' && f !== 'repo'))
            ? ". No committed run holds this call: was the agent's run merged? (with the policy's pending set, a record waits for its run as record_pending)"
            : '';
        return `${name} binds no call: ${unmatchedText(why, verdict.record)}. ${UNDECLARED}${missing}`;
    }
    if (verdict.outcome === 'awaiting_run')
        return `${name} binds no call yet: ${unmatchedText(verdict.why, verdict.record)}. Its export is younger than the policy's pending: the agent's run may still arrive by its own pull request; it waits until ${(0,core_time/* rfc3339 */.ag)(verdict.until)}, then it is record_unmatched`;
    const check = verdict.record.check;
    switch (check.outcome) {
        case 'inconsistent':
            return `${name}: ${check.reason}`;
        case 'untrusted':
            if (check.code === 'history_only')
                return `${name} is held to its own trust: ${check.reason}; it verifies no call, under any trust mode`;
            return `${name} is not from a trusted signer: ${check.reason}; it verifies no call${softened(check, options) ? ' (trust mode warn: it would fail under enforce)' : ''}`;
        case 'imported_twice':
            return `${name} is the same audit entry as the record at ${(0,core_findings/* placeOf */.$t)(check.first.loc)} (same identity, same subject and binding_digest): counted once`;
        case 'duplicate':
            return `${name} shares (provider, record_id) with the record at ${(0,core_findings/* placeOf */.$t)(check.other.loc)}, whose subject differs: one identity names one audit entry, so neither verifies a call`;
    }
}
/** Whether trust mode warn makes a record's refusal a warning: an untrusted record whose code is a rollout's gap, never a replay (history_only). */
const softened = (check, options) => check.outcome === 'untrusted' && options.trustMode === 'warn' && (0,core_trust/* warnable */.lS)(check.code);
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
    const message = recordMessage(verdict, name, options);
    const severity = (verdict.outcome === 'unmatched' && options.allowUnmatchedRecords) ||
        (verdict.outcome === 'untrusted' && softened(verdict.record.check, options))
        ? 'warning'
        : undefined;
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

;// CONCATENATED MODULE: ./src/core/judge.ts



/** The weakest level among calls that assert a side effect (§9); null when none does. */
function weakest(calls) {
    let w = null;
    for (const c of calls)
        if (c.level !== null && (w === null || (0,vocabulary/* below */.Gz)(c.level, w)))
            w = c.level;
    return w;
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
const judge_NONE = [];
function judgeFile(file, judging) {
    const { requirements, coverage, options } = judging;
    const usage = requirements.usage();
    const calls = file.calls.map((call, i) => {
        if (call.run !== file.run)
            throw new RangeError(`call ${call.order} is not of ${file.run.artifact}`);
        const outcome = item(file.outcomes, i);
        const requirement = requirements.of(call, usage);
        const covered = coverageVerdict(coverage.of(call, call.input.time), outcome);
        // A pending call's requirement waits for its export (docs/coverage.md §3): it is not measured yet.
        const shortfall = covered.kind === 'pending' ? { kind: 'met' } : requirements.measure(call, requirement, outcome, usage);
        return judgeCall(call, outcome, requirement, shortfall, options, file.claimFindings[i] ?? judge_NONE, covered);
    });
    if (file.outcomes.length !== calls.length)
        throw new RangeError(`${file.outcomes.length} outcome(s) for the ${calls.length} call(s) of ${file.run.artifact}`);
    const attestation = file.run.attestation;
    return {
        run: {
            artifact: file.run.artifact,
            calls: calls.length,
            weakest_level: weakest(calls),
            producer: producerOf(attestation),
            unattested_code: attestation?.kind === 'unattested' ? attestation.code : null,
        },
        calls,
        usage,
    };
}

;// CONCATENATED MODULE: ./src/core/report.ts
const REPORT_SCHEMA = 'receipt-gate.report.v1';

;// CONCATENATED MODULE: ./src/core/requirements.ts
/**
 * Requirements (semantics §7, docs/policy.md §3): what each call must reach and what falling short
 * means. A call is ruled when it asserts a side effect and was not denied, and its run is not
 * grandfathered; its rule is the policy's (or the default's level); a shortfall is an error
 * (enforce) or a warning (warn), or excused by a live exception of its rule and binding. An
 * exception never excuses an honesty failure: those findings are the claims' and records', never
 * this module's. What the policy file itself says about its exceptions and grandfathered runs
 * (expired, expiring, unused, stale) is found here too, located in the file.
 */






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
/**
 * What judging some calls used of the policy: the calls each exception excused, the calls an expired
 * one would have excused (the first named), the rules applied. Each file's calls are judged with
 * their own, merged in path order, so "the first" is the first of the verification (the files'
 * calls come in artifact order) and the counts are the same however the files were shared out.
 */
class Usage {
    policy;
    positions;
    excused = new Map();
    lapsed = new Map();
    rules;
    /** @param positions each exception of `policy` → its position (made once per policy by `Requirements`) */
    constructor(policy, positions) {
        this.policy = policy;
        this.positions = positions;
        this.rules = new RuleUse(policy);
    }
    /** This policy's exception at the position `later`'s policy (perhaps another copy of it) gives `e`. */
    mine(later, e) {
        return this.policy.exceptions[later.positions.get(e) ?? -1];
    }
    /** Adds `later`'s use (the same policy, perhaps another copy of it: exceptions matched by position), its calls after this one's. */
    merge(later) {
        // Only what `later` used: one entry per exception object, however many positions hold it.
        for (const [e, n] of later.excused) {
            const mine = this.mine(later, e);
            this.excused.set(mine, (this.excused.get(mine) ?? 0) + n);
        }
        for (const [e, lapsed] of later.lapsed) {
            const mine = this.mine(later, e);
            const had = this.lapsed.get(mine);
            if (had)
                had.count += lapsed.count;
            else
                this.lapsed.set(mine, { first: lapsed.first, count: lapsed.count });
        }
        this.rules.merge(later.rules);
    }
}
/**
 * One verification's requirements: what each call must reach, decided per call and the same for every
 * file (nothing here changes as calls are judged: what they use is noted in a `Usage`), with what the
 * policy file's own entries earn once every call is judged.
 */
class Requirements {
    policy;
    now;
    /** Exceptions by the binding they excuse. */
    byBinding = new Map();
    /** Each exception's position in the policy: how a file's `Usage` is merged. */
    positions;
    /** Grandfathered runs by artifact (their bytes matched), and every entry that matched nothing. */
    grandfatheredRuns = new Map();
    stale = [];
    constructor(policy, now, runs, fileSha256 = new Map()) {
        this.policy = policy;
        this.now = now;
        this.positions = new Map(policy.exceptions.map((e, i) => [e, i]));
        for (const e of policy.exceptions) {
            const list = this.byBinding.get(e.binding);
            if (list)
                list.push(e);
            else
                this.byBinding.set(e.binding, [e]);
        }
        const byArtifact = new Map(runs.map((r) => [r.artifact, r]));
        for (const entry of policy.grandfathered) {
            if (entry.kind === 'audit') {
                const sha256 = fileSha256.get(entry.run);
                // Every input's bytes are hashed, runs' too: a run file named as an audit file pins no record (a red team: silent).
                if (byArtifact.has(entry.run))
                    this.stale.push({ entry, why: 'it is a run file, not an audit export (a run is grandfathered with run:)' });
                else if (sha256 === undefined)
                    this.stale.push({ entry, why: 'no audit file of that path was read' });
                else if (sha256 !== entry.sha256)
                    this.stale.push({ entry, why: `its bytes changed (sha256 ${sha256}, pinned ${entry.sha256}): trust is asked of its records` });
                continue;
            }
            const run = byArtifact.get(entry.run);
            if (!run)
                this.stale.push({ entry, why: 'no run of that path was read' });
            else if (entry.onlyIn && !entry.onlyIn.has(run.artifact))
                continue; // added by the pull request, for a run the base does not hold as it is: after merge
            else if (run.sha256 !== entry.sha256)
                this.stale.push({
                    entry,
                    why: `its bytes changed (sha256 ${run.sha256 ?? 'unknown'}, pinned ${entry.sha256}): it is judged in full`,
                });
            else
                this.grandfatheredRuns.set(run.artifact, entry);
        }
    }
    /** A fresh tally of what calls use of this policy. */
    usage() {
        return new Usage(this.policy, this.positions);
    }
    /** Whether a run is grandfathered (its bytes as pinned): judged for honesty only, attestation not asked. */
    isGrandfathered(artifact) {
        return this.grandfatheredRuns.has(artifact);
    }
    /** The rule for a call a rule could apply to, its use noted. */
    ruleOf(facts, usage) {
        const rule = ruleFor(this.policy, facts);
        usage.rules.note(facts, rule);
        return rule;
    }
    /** What a call must reach (the rule it used noted in `usage`). */
    of(call, usage) {
        const entry = this.grandfatheredRuns.get(call.run.artifact);
        if (entry) {
            // Judged for honesty only; what it would have had to reach is kept, to report its shortfall
            // suppressed. A rule whose calls are all grandfathered is in use (not misspelt).
            const facts = ruledCall(call) ? factsOf(call) : null;
            const rule = facts ? this.ruleOf(facts, usage) : null;
            const level = rule?.level ?? (facts ? this.policy.defaultLevel : null);
            const reason = entry.onlyIn
                ? `${entry.reason} (added by this pull request; it applies now: the run is on the base with the same bytes)`
                : entry.reason;
            return { ...NOT_RULED, grandfathered: true, shadow: level === null ? null : { rule, level, reason } };
        }
        if (!ruledCall(call))
            return NOT_RULED;
        const facts = factsOf(call);
        const rule = this.ruleOf(facts, usage);
        const untold = rule ? untoldWhy(rule, facts) : null;
        if (rule)
            return { rule, level: rule.level, mode: rule.mode, grandfathered: false, shadow: null, ...(untold ? { untold } : {}) };
        if (this.policy.defaultLevel === null)
            return NOT_RULED;
        return { rule: null, level: this.policy.defaultLevel, mode: 'enforce', grandfathered: false, shadow: null };
    }
    /** How a call earning `outcome` measures against its requirement (an exception used is counted in `usage`). */
    measure(call, requirement, outcome, usage) {
        const { rule, level: required } = requirement;
        if (required === null || outcome.level === null)
            return { kind: 'met' };
        const voucher = voucherOf(outcome);
        // signed-by is a requirement, not a rung, and it holds at every level (docs/policy.md §11): a record
        // another signer vouched for still verifies the call, but the rule then counts only what the call
        // earns without it (its confirming read, or its assertion).
        const unlisted = outcome.level === 'verified' && rule?.signedBy && (voucher === null || !rule.signedBy.includes(voucher));
        const counted = unlisted ? (outcome.read ? 'observed_confirmed' : 'asserted') : outcome.level;
        const short = (0,vocabulary/* below */.Gz)(counted, required);
        if (!short)
            return { kind: 'met' };
        const p = call.input.projection;
        // An exception the pull request adds applies now only to a call already at the base with the same bytes (docs/policy.md §10).
        const candidates = rule && p.kind === 'subject'
            ? (this.byBinding.get(p.digest) ?? []).filter((e) => e.rule === rule.name && (!e.onlyIn || e.onlyIn.has(call.run.artifact)))
            : [];
        const live = candidates.find((e) => (0,core_time/* compareInstants */.QI)(e.expires, this.now) > 0);
        if (live) {
            usage.excused.set(live, (usage.excused.get(live) ?? 0) + 1);
            return { kind: 'excused', exception: live };
        }
        for (const e of candidates) {
            const lapsed = usage.lapsed.get(e);
            if (lapsed)
                lapsed.count++;
            else
                usage.lapsed.set(e, { first: callRef(call), count: 1 });
        }
        return { kind: 'short', voucher };
    }
    /** The policy file's own findings, once every call is judged (`usage`: every call's): expired, expiring and unused exceptions, stale grandfathered runs, unused rules. */
    findings(usage, unusedRule) {
        const out = [];
        for (const e of this.policy.exceptions) {
            const who = `owner ${(0,core_text/* quote */.hD)(e.owner, 100)}, reason ${JSON.stringify((0,core_text/* quote */.hD)(e.reason, 200))}`;
            const expired = (0,core_time/* compareInstants */.QI)(e.expires, this.now) <= 0;
            const lapsed = usage.lapsed.get(e);
            if (expired && lapsed && !usage.excused.has(e)) {
                const where = ` (${lapsed.first.artifact} decision ${lapsed.first.index}${lapsed.count > 1 ? ` and ${lapsed.count - 1} more call(s)` : ''})`;
                out.push((0,core_findings/* finding */.gk)('exception_expired', e.at, `the exception for rule ${e.rule} (${who}) expired on ${e.expiresText}: the call it excused${where} fails as usual; renew it with a new reason and expiry, or fix the call`));
            }
            else if (!usage.excused.has(e))
                out.push(e.onlyIn
                    ? (0,core_findings/* finding */.gk)('exception_unused', e.at, `the exception for rule ${e.rule} (${who}) that this pull request adds excuses no call already on the base with the same bytes: it applies after merge`, 'notice')
                    : (0,core_findings/* finding */.gk)('exception_unused', e.at, `the exception for rule ${e.rule} (${who}) excused no call: prune it`));
            if (!expired && e.expires.seconds - this.now.seconds <= EXPIRING_SECONDS)
                out.push((0,core_findings/* finding */.gk)('exception_expiring', e.at, `the exception for rule ${e.rule} (${who}) expires on ${e.expiresText}, within 14 days: renew it or fix what it excuses`));
        }
        for (const { entry, why } of this.stale)
            out.push((0,core_findings/* finding */.gk)('grandfather_stale', entry.at, `grandfathered ${entry.kind} ${(0,core_text/* quote */.hD)(entry.run)}: ${why}; this entry grandfathers nothing`));
        for (const rule of usage.rules.rules())
            out.push(unusedRule(rule, usage.rules.takenBy(rule)));
        return out;
    }
}
/**
 * `rule_unused`: for a rule of the file, located at the rule; for a rule of the `require` input, an
 * input finding. It names the classes seen, and why: the earlier rule that took the calls the rule
 * matched (`takenBy`: a file's first match wins), a near class, or no call of the rule's class.
 */
function unusedRequireRule(rule, classesSeen, takenBy = null) {
    const seen = classesSeen.length === 0
        ? 'no call asserts a side effect'
        : `classes seen: ${classesSeen
            .slice(0, 20)
            .map((c) => (0,core_text/* quote */.hD)(c, 100))
            .join(', ')}${classesSeen.length > 20 ? ` and ${classesSeen.length - 20} more` : ''}`;
    // A misspelling is suggested only when a near name was seen (docs/policy.md §11).
    const ruleClass = rule.actionClass;
    const near = ruleClass === null || classesSeen.includes(ruleClass) ? null : (0,core_text/* nearestName */.qb)(ruleClass, classesSeen);
    const why = takenBy !== null
        ? `calls matched it, but each went to an earlier rule (the first match wins), the first to ${takenBy.name}${takenBy.at ? ` (line ${takenBy.at.line})` : ''}: move this rule above ${takenBy.name}, or narrow ${takenBy.name}`
        : ruleClass === null
            ? 'no call asserts a side effect'
            : classesSeen.includes(ruleClass)
                ? `calls of ${(0,core_text/* quote */.hD)(ruleClass, 100)} were read, but none matched its ${rule.at === null ? 'verb' : 'verb or target'}`
                : near !== null
                    ? `is its class misspelt? did you mean ${JSON.stringify(near)}?`
                    : `no call of ${(0,core_text/* quote */.hD)(ruleClass, 100)} was read`;
    if (rule.at !== null)
        return (0,core_findings/* finding */.gk)('rule_unused', rule.at, `rule ${rule.name} applies to no call (${seen}): ${why}`);
    return (0,core_findings/* inputFinding */.uY)('rule_unused', `require: ${rule.selector}=${rule.level}`, `the rule ${rule.selector}=${rule.level} applies to no call (${seen}): ${why}`);
}
/** The classes of the calls a rule could apply to, sorted (what `rule_unused` names). */
const classesOf = (calls) => [
    ...new Set(calls
        .filter(ruledCall)
        .map((c) => c.input.actionClass)
        .filter((c) => c !== null)),
].sort(core_text/* cmp */.r2);
/**
 * The audit files a policy grandfathers whose bytes are as pinned (docs/policy.md §9): their records
 * are judged for honesty and bind calls, but trust is not asked of them. Each file maps to where its
 * records may bind a call so: null, anywhere (an entry of the base's policy); or the run files present
 * with the same bytes at the base (only entries a pull request adds: §10, they never apply to a call
 * the pull request adds or changes).
 */
function pinnedAuditFiles(policy, fileSha256) {
    const out = new Map();
    for (const entry of policy.grandfathered) {
        if (entry.kind !== 'audit' || fileSha256.get(entry.run) !== entry.sha256)
            continue;
        if (!entry.onlyIn)
            out.set(entry.run, null);
        else if (entry.onlyIn.has(entry.run) && !out.has(entry.run))
            out.set(entry.run, entry.onlyIn);
    }
    return out;
}

// EXTERNAL MODULE: ./src/core/severity.ts
var severity = __nccwpck_require__(432);
;// CONCATENATED MODULE: ./src/core/verify.ts
/**
 * verify(evidence, options) → Report: the whole contract of docs/verification-semantics.md as one
 * pure function, and the only path from evidence to a verdict. No I/O: readers hand in located
 * values, reporters render the result. The rules live in their own modules: the binding
 * (binding.ts, projection.ts), claims (claims.ts), records (records.ts), the allocation
 * (allocation.ts), the ladder (ladder.ts), diagnoses (diagnose.ts), required levels (policy.ts) and
 * the verdicts (verdicts.ts); the counts come from the vocabularies (vocabulary.ts, findings.ts).
 */















/** The calls of one run, with the findings their claims make on their own (shape, consistency), by position. */
function callsOf(run, first) {
    const claimFindings = [];
    const calls = run.decisions.map((input, i) => {
        const reading = input.claim;
        const order = first + i;
        if (reading.kind === 'invalid') {
            const claim = { asserted: false, level: 'asserted', digest: null, legacy: false };
            claimFindings[i] = [(0,core_findings/* finding */.gk)('invalid_artifact', input.loc, `decision ${input.index}: ${reading.reason}`)];
            return { order, run, input, claim, eligibility: { ok: false, reason: reading.reason } };
        }
        if (reading.inconsistencies.length > 0)
            claimFindings[i] = reading.inconsistencies.map((why) => (0,core_findings/* finding */.gk)('inconsistent_claim', input.loc, `decision ${input.index}: ${why}`));
        return { order, run, input, claim: reading.claim, eligibility: eligibility(input, reading.claim) };
    });
    return { calls, claimFindings };
}
/** The records or statements of grandfathered audit files with trust not asked of them (unchecked, never untrusted); the rest as they are. */
function trustNotAsked(pinned, items, held = new Map(), relaxed = null) {
    if (pinned.size === 0)
        return items;
    return items.map((x) => {
        const kept = held.get(x);
        if (kept !== undefined)
            return kept;
        if (!pinned.has(x.loc.file) || x.trust.kind !== 'untrusted')
            return x;
        const y = { ...x, trust: { kind: 'unchecked' } };
        relaxed?.set(y, x);
        return y;
    });
}
/**
 * The records checked, and what every call earned, with trust not asked of grandfathered audit files'
 * records; an untrusted record relaxed only by an entry the pull request adds (docs/policy.md §10)
 * that would bind a call outside the run files present with the same bytes at the base is held to
 * its trust, with every such record of its subject (so the call cannot take the next one), and the
 * allocation made once more: records of other subjects bind as before, so a second round finds none.
 */
function climbPinned(evidence, pinned, perRun) {
    // Each held record as the original, refused as history_only: a replay, an error whatever the trust mode (a red team: under warn it merged, then verified).
    const held = new Map();
    // Only an entry the pull request adds limits where its records bind: without one, one allocation.
    const limited = [...pinned.values()].some((onlyIn) => onlyIn !== null);
    for (;;) {
        const relaxed = new Map();
        const inputs = trustNotAsked(pinned, evidence.records, held, relaxed);
        const records = checkRecords([...inputs].sort((a, b) => (0,core_findings/* byLocation */.HC)(a.loc, b.loc)));
        const climbed = climb(perRun, records);
        if (!limited)
            return { records, climbed };
        const over = new Set();
        for (const v of climbed.records) {
            if (v.outcome !== 'bound' || !relaxed.has(v.record.input))
                continue;
            const onlyIn = pinned.get(v.record.input.loc.file);
            if (onlyIn && !onlyIn.has(v.call.run.artifact))
                over.add(v.record.check.recomputed);
        }
        if (over.size === 0)
            return { records, climbed };
        for (const r of records) {
            const original = relaxed.get(r.input);
            if (original &&
                original.trust.kind === 'untrusted' &&
                pinned.get(r.input.loc.file) &&
                r.check.recomputed !== null &&
                over.has(r.check.recomputed))
                held.set(original, {
                    ...original,
                    trust: {
                        kind: 'untrusted',
                        code: 'history_only',
                        reason: `a grandfathered audit file's records bind only calls of runs the base holds with the same bytes, and this one would bind a call the pull request adds or changes (its own trust: ${original.trust.reason})`,
                    },
                });
        }
    }
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
/**
 * Calls that earned a higher level than they claim, counted in one notice at the first of them: with
 * nightly exports, a call asserted at run time and verified the next morning is the normal state.
 */
function underClaimed(calls) {
    const later = calls.filter((c) => c.claimed_level !== null && c.level !== null && (0,vocabulary/* below */.Gz)(c.claimed_level, c.level));
    const [first] = later;
    if (!first)
        return null;
    const verified = later.filter((c) => c.level === 'verified').length;
    const why = verified > 0 ? ` (${verified} verified by an audit record exported after the run: the normal state with nightly exports)` : '';
    const one = `${first.tool} claims ${first.claimed_level} but earned ${first.level}`;
    return (0,core_findings/* finding */.gk)('under_claimed', { file: first.artifact, line: first.line, column: first.column, ...(first.member ? { member: first.member } : {}) }, later.length === 1 ? `${one}${why}` : `${later.length} call(s) earned a higher level than they claim${why}; the first: ${one}`);
}
/**
 * Phase 2 (design/threads-that-judge.md): what needs every call and record at once. The records
 * checked and allocated, each call's outcome decided (the confirming read of its run, a replay of
 * another copy of its run), and each run file handed on with its calls and their outcomes as one
 * `FileToJudge`, which `judgeFile` judges on its own.
 */
function allocateAll(evidence, options) {
    const policy = options.policy ?? policy_NO_POLICY;
    const runs = [...evidence.runs].sort((a, b) => (0,core_text/* cmp */.r2)(a.artifact, b.artifact));
    // A grandfathered audit file's records are judged for honesty and bind calls; trust is not asked of them (docs/policy.md §9).
    const pinned = pinnedAuditFiles(policy, evidence.fileSha256 ?? new Map());
    let first = 0;
    const read = runs.map((run) => {
        const file = callsOf(run, first);
        first += file.calls.length;
        return file;
    });
    const { records, climbed } = climbPinned(evidence, pinned, read.map((f) => f.calls));
    let from = 0;
    const files = read.map(({ calls, claimFindings }, i) => ({
        run: item(runs, i),
        calls,
        outcomes: climbed.outcomes.slice(from, (from += calls.length)),
        claimFindings,
    }));
    const requirements = new Requirements(policy, options.now ?? EPOCH, runs, evidence.fileSha256);
    const coverage = new Coverage(trustNotAsked(pinned, evidence.statements ?? []), policy.pendingSeconds, options.now ?? null);
    return { runs, files, judging: { requirements, coverage, options }, records, climbed, pinned };
}
function verify(evidence, options) {
    const allocation = allocateAll(evidence, options);
    // Phase 3: each file judged on its own; merged in path order.
    return reportOf(evidence, options, allocation, allocation.files.map((f) => judgeFile(f, allocation.judging)));
}
/** The report of one verification: the files' judgements merged in path order, with what needs every call (the findings' order, totals, the records' verdicts). */
function reportOf(evidence, options, allocation, judged) {
    const policy = options.policy ?? policy_NO_POLICY;
    const now = options.now ?? EPOCH;
    const { runs, records, climbed, pinned } = allocation;
    const { requirements, coverage } = allocation.judging;
    const usage = requirements.usage();
    const runReports = [];
    const callReports = [];
    for (const file of judged) {
        usage.merge(file.usage);
        runReports.push(file.run);
        for (const c of file.calls)
            callReports.push(c);
    }
    const all = allocation.files.flatMap((f) => f.calls);
    const seen = classesOf(all);
    const findings = [
        ...evidence.findings,
        ...requirements.findings(usage, (rule, takenBy) => unusedRequireRule(rule, seen, takenBy)),
    ];
    const warnTrust = options.trustMode === 'warn';
    for (const run of runs) {
        // A grandfathered run is judged for honesty only: its attestation is not asked.
        if (run.attestation?.kind === 'unattested' && !requirements.isGrandfathered(run.artifact)) {
            const why = warnTrust
                ? `run ${(0,core_text/* quote */.hD)(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged (trust mode warn: it would fail under enforce)`
                : `run ${(0,core_text/* quote */.hD)(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged, and the gate fails`;
            findings.push((0,core_findings/* finding */.gk)('run_unattested', { file: run.artifact, line: 1, column: 1 }, why, warnTrust ? 'warning' : undefined));
        }
    }
    for (const c of callReports)
        for (const f of c.findings)
            findings.push(f);
    const later = underClaimed(callReports);
    if (later)
        findings.push(later);
    const statements = statementReports(evidence.statements ?? [], coverage);
    // Signed records with no trusted signer to check them look like unsigned ones: say so, once.
    const signed = (evidence.trustedSigners ?? []).length === 0 && !evidence.identities?.signers.length
        ? records.filter((r) => r.input.signer !== null)
        : [];
    const firstSigned = signed[0];
    if (firstSigned)
        findings.push((0,core_findings/* finding */.gk)('signatures_unchecked', firstSigned.input.loc, `${signed.length} audit record(s) are signed (the first by ${firstSigned.input.signer}) but no trusted key is configured: their signatures were not checked (give trusted-keys with the signer's public key, and require-signed-records)`));
    const named = providersNamed(all);
    for (const s of coverage.usable) {
        const why = coversNothing(s.statement, named);
        if (why)
            findings.push((0,core_findings/* finding */.gk)('coverage_empty', s.loc, `coverage statement (${(0,core_text/* quote */.hD)(s.statement.export, 40)}, ${windowText(s.statement)}): ${why}`));
    }
    for (const s of evidence.statements ?? [])
        if (s.trust.kind === 'untrusted' && !pinned.has(s.loc.file))
            findings.push((0,core_findings/* finding */.gk)('record_untrusted', s.loc, `coverage statement (${(0,core_text/* quote */.hD)(s.statement.export, 40)}, ${windowText(s.statement)}) is not from a trusted signer: ${s.trust.reason}; it covers nothing${warnTrust ? ' (trust mode warn: it would fail under enforce)' : ''}`, warnTrust ? 'warning' : undefined));
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
    for (const found of climbed.records) {
        // A record that binds no call waits for its run while its export is younger than pending (docs/policy.md §12).
        const waits = found.outcome === 'unmatched' ? coverage.recordWaits(found.record.input) : null;
        const v = found.outcome === 'unmatched' && waits !== null
            ? { outcome: 'awaiting_run', record: found.record, why: found.why, until: waits }
            : found;
        const judged = judgeRecord(v, options);
        if (judged.finding)
            findings.push(judged.finding);
        if (v.record.check.outcome === 'imported_twice')
            continue;
        const also = copies.get(v.record.input);
        const report = also ? withCopies(judged.report, also) : judged.report;
        // A grandfathered file's record is unchecked only because its trust was not asked: said, so a verdict never counts it vouched for.
        const notAsked = v.record.input.trust.kind === 'unchecked' && pinned.has(v.record.input.loc.file);
        recordReports.push(notAsked ? { ...report, trust_not_asked: true } : report);
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
            ...(options.trustMode === 'warn' ? { trust_mode: 'warn' } : {}),
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

// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __nccwpck_require__(4006);
var picomatch_default = /*#__PURE__*/__nccwpck_require__.n(picomatch);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __nccwpck_require__(4146);
;// CONCATENATED MODULE: ./src/read/classify.ts
/**
 * What a JSON object is (§1), for every reader (plain files, NDJSON logs, bundle events, the members
 * of archives and files the gate does not read by name), so they can never disagree. Export folders
 * and run logs legitimately hold other Assay artifacts, which are skipped with a notice; but a near
 * miss of a kind the gate reads is an error, never a skip: another version (`…v1`), another case
 * (`…V0`), a suffix (`…v0.1`) or stray whitespace. An object that names two kinds at once (an event's
 * `type` and a top-level `schema`) is ambiguous: an error. So is an object of another kind that
 * carries evidence inside (a log shipper's envelope around an evidence event or a tracing line), and
 * upstream Assay's `assay.tool.decision` event, which this gate does not read (`otherKind`).
 */



const KNOWN = [
    [model/* SURFACE_SCHEMA */.SB, 'surface'],
    [model/* RECORD_SCHEMA */.ep, 'record'],
    [model/* COVERAGE_SCHEMA */.Bh, 'coverage'],
];
/** The family of a kind we read that `name` is exact or a near miss of, if any. */
function familyOf(name) {
    const name2 = name.trim().toLowerCase();
    for (const k of KNOWN)
        if (name2.startsWith(k[0].replace(/\.v\d+$/, '')))
            return k;
    return null;
}
/**
 * The member that marks an object as a kind this gate reads whatever it is named (a decision
 * surface's `observed_tool_decisions`, a record's `binding_digest`), or null. A surface or record
 * under another name (`assay.tool_decisions_surface.v0`, a look-alike letter) is never skipped as
 * another kind (a red team: a failing run so renamed passed with a notice).
 */
function markOf(value) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    for (const member of ['observed_tool_decisions', 'binding_digest'])
        if ((0,core_json/* hasOwn */.$3)(value, member))
            return member;
    return null;
}
function byName(name, payload, via) {
    const k = familyOf(name);
    const mark = markOf(payload);
    if (!k && mark !== null)
        return {
            kind: 'error',
            reason: `${via === 'event' ? 'an evidence event of type' : 'an object of schema'} ${JSON.stringify((0,core_text/* quote */.hD)(name, 120))} holds ${mark}: a kind this gate reads under another name is never skipped (this gate reads ${mark === 'binding_digest' ? model/* RECORD_SCHEMA */.ep : model/* SURFACE_SCHEMA */.SB})`,
            named: true,
        };
    if (!k)
        return { kind: 'other', name: (0,core_text/* quote */.hD)(name, 120) };
    const [known, kind] = k;
    if (name !== known) {
        const version = /\.v\d+$/.test(name) ? 'unsupported version' : 'not exactly the kind';
        return {
            kind: 'error',
            reason: `${version} ${JSON.stringify((0,core_text/* quote */.hD)(name, 120))} (this gate reads ${known}; a near miss is never skipped)`,
            named: true,
        };
    }
    if (!(0,core_json/* isObject */.Gv)(payload))
        return { kind: 'error', reason: `the ${via === 'event' ? 'event data' : 'object'} of ${known} is not an object`, named: true };
    return { kind, payload, via };
}
/** A tracing line: a string `timestamp`, a string `level`, an object `fields` and a string `target`. */
const isTracing = (v) => typeof v['timestamp'] === 'string' && typeof v['level'] === 'string' && (0,core_json/* isObject */.Gv)(v['fields']) && typeof v['target'] === 'string';
/** An `event` that is tool_decision in any case. */
function eventIsDecision(o) {
    const event = o['event'];
    return typeof event === 'string' && event.toLowerCase() === 'tool_decision';
}
/** A `decision` member, or an `event` that is tool_decision in any case. */
const namesDecision = (o) => (0,core_json/* hasOwn */.$3)(o, 'decision') || eventIsDecision(o);
/**
 * Whether a JSON object carries a decision, whatever else it is: a `decision` member or an `event`
 * that is tool_decision in any case, in `fields` or at the top (tracing's flattened shape, a red
 * team: such lines were skipped as JSON that is not a tracing event). Such a line is read as a
 * decision or is an error, never skipped (docs/assay-server-logs.md, "Never skipped").
 */
function carriesDecision(value) {
    const fields = value['fields'];
    if ((0,core_json/* isObject */.Gv)(fields) && namesDecision(fields))
        return true;
    // At the top only on an object that names no kind: Assay's enforcement decisions carry a top-level
    // `decision` under their own schema, and are skipped as another kind (a red team's false red).
    const namesKind = typeof value['schema'] === 'string' || (typeof value['type'] === 'string' && (0,core_json/* hasOwn */.$3)(value, 'data'));
    return !namesKind && namesDecision(value);
}
/** What the object says it is, by its own members (never what it holds inside: that is `otherKind`'s). */
function named(value) {
    if (!(0,core_json/* isObject */.Gv)(value)) {
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
    const event = typeof type === 'string' && (0,core_json/* hasOwn */.$3)(value, 'data');
    if (schema !== undefined && typeof schema !== 'string')
        return { kind: 'error', reason: '"schema" is not a string', named: true };
    if (typeof schema === 'string' && event) {
        // Both named: fine only when they cannot disagree about whether this is something we read.
        if (familyOf(schema) || familyOf(type)) {
            return {
                kind: 'error',
                reason: `ambiguous: an evidence event of type ${JSON.stringify((0,core_text/* quote */.hD)(type, 120))} with a top-level schema ${JSON.stringify((0,core_text/* quote */.hD)(schema, 120))}`,
                named: true,
            };
        }
        // Both named another kind: still never a surface or record under those names (its data, or itself).
        const mark = markOf(value['data']) ?? markOf(value);
        if (mark !== null)
            return {
                kind: 'error',
                reason: `an evidence event of type ${JSON.stringify((0,core_text/* quote */.hD)(type, 120))} holds ${mark}: a kind this gate reads under another name is never skipped`,
                named: true,
            };
        return { kind: 'other', name: (0,core_text/* quote */.hD)(type, 120) };
    }
    if (typeof schema === 'string')
        return byName(schema, value, 'schema');
    if (event)
        return byName(type, value['data'], 'event');
    const mark = markOf(value);
    if (mark !== null)
        return {
            kind: 'error',
            reason: `object has no "schema" string but holds ${mark}: a kind this gate reads is never skipped`,
            named: true,
        };
    return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")', named: false };
}
/**
 * Upstream Assay's own tool decision event (`assay.tool.decision`, in any case, any separator, with
 * or without a version): not a kind this gate reads, and never skipped as another kind (a red team:
 * a run of such events passed with a notice beside a run that did pass).
 */
const UPSTREAM_DECISION = /^assay[._-]tool[._-]decisions?([._-]v\d+)?$/;
/** The `type` or `schema` of an object that names upstream's decision event, or null. */
function upstreamDecision(o) {
    for (const member of ['type', 'schema']) {
        const name = o[member];
        if (typeof name === 'string' && UPSTREAM_DECISION.test(name.trim().toLowerCase()))
            return name;
    }
    return null;
}
/**
 * Whether a nested object names, with a string (`schema`, or an event's `type` beside `data`), a kind
 * this gate reads (exactly or a near miss), or holds a kind's mark under some other string name. An
 * object that names nothing with a string is ordinary data, whatever members it has: a JSON Schema's
 * property called `schema`, a `schema: null`, a receipt's `binding_digest` (a red team: such data in
 * an MCP tools/list answer or a session event rejected the whole run as wrapped evidence).
 */
function namesEvidence(o) {
    const names = [o['schema'], (0,core_json/* hasOwn */.$3)(o, 'data') ? o['type'] : undefined].filter((n) => typeof n === 'string');
    if (names.length === 0)
        return false;
    return names.some((n) => familyOf(n) !== null) || markOf(o) !== null || markOf(o['data']) !== null;
}
/** What evidence an object is, in words, when a reader would take it (null: none). */
function evidenceWhat(o) {
    const kind = named(o);
    if (kind.kind === 'tracing')
        return (0,core_json/* isObject */.Gv)(o['fields']) && eventIsDecision(o['fields']) ? 'a server tool_decision line' : 'a server tracing line';
    if (kind.kind === 'surface')
        return kind.via === 'event' ? `an ${model/* SURFACE_SCHEMA */.SB} evidence event` : `a decision surface (${model/* SURFACE_SCHEMA */.SB})`;
    if (kind.kind === 'record')
        return `an audit record (${model/* RECORD_SCHEMA */.ep})`;
    if (kind.kind === 'coverage')
        return `a coverage statement (${model/* COVERAGE_SCHEMA */.Bh})`;
    if (kind.kind === 'error' && kind.named && (isTracing(o) || namesEvidence(o)))
        return `an object this gate reads or refuses (${(0,core_text/* quote */.hD)(kind.reason, 160)})`;
    const upstream = upstreamDecision(o);
    if (upstream !== null)
        return `upstream Assay's ${JSON.stringify((0,core_text/* quote */.hD)(upstream, 60))} decision event`;
    // A decision's own markers in `fields`, or an event tool_decision (never a bare `decision` member:
    // other JSON, a tool's answer among them, uses that word for its own things).
    const fields = o['fields'];
    if (((0,core_json/* isObject */.Gv)(fields) && namesDecision(fields)) || eventIsDecision(o))
        return 'a tool_decision event';
    return null;
}
/** How deep inside another kind's object evidence is looked for (members, list items and JSON text in strings). */
const MAX_INSIDE = 64;
const memberPath = (path, key) => /^[A-Za-z_@$][\w@$-]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify((0,core_text/* quote */.hD)(key, 40))}]`;
/**
 * Evidence a reader would take inside `value` (the object itself too, below the top): a nested
 * object, or a string member whose text (whole, or one of its lines) is a JSON object. Structure
 * only: a string that merely mentions a kind's name is not JSON and holds nothing.
 */
function inside(value, path, depth, text) {
    if (depth > MAX_INSIDE)
        return null;
    if (typeof value === 'string')
        return inText(value, path, depth);
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
            const found = inside(value[i], `${path}[${i}]`, depth + 1, false);
            if (found)
                return found;
        }
        return null;
    }
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    if (depth > 0) {
        const what = evidenceWhat(value);
        if (what !== null)
            return { path, text, what };
    }
    for (const [key, member] of Object.entries(value)) {
        const found = inside(member, memberPath(path, key), depth + 1, false);
        if (found)
            return found;
    }
    return null;
}
/**
 * The JSON value a string's text holds, or undefined: the whole text, JSON text encoded twice (a
 * string), or the object after a prefix (a container runtime's `<time> stdout F `, a compose
 * service's `agent-1 | `; a red team: evidence behind such a prefix, or encoded twice, was skipped).
 */
function jsonIn(t, prefixed) {
    if (t.startsWith('"') && t.endsWith('"'))
        return jsonValue(t);
    if (!t.endsWith('}'))
        return undefined;
    if (!prefixed)
        return t.startsWith('{') ? jsonValue(t) : undefined;
    // The first few braces only: a prefix rarely holds one, and a failed parse is not free.
    for (let start = t.indexOf('{'), n = 0; start >= 0 && n < 4; start = t.indexOf('{', start + 1), n++) {
        const v = jsonValue(start === 0 ? t : t.slice(start));
        if (v !== undefined)
            return v;
    }
    return undefined;
}
/** JSON text in a string member: the whole string, or each of its lines, when it holds a JSON object (or JSON text). */
function inText(value, path, depth) {
    if (!value.includes('{'))
        return null;
    const t = value.trim();
    // A prefix only on one line: a text of many lines is read line by line, each located.
    const whole = jsonIn(t, !t.includes('\n'));
    if ((0,core_json/* isObject */.Gv)(whole) || typeof whole === 'string')
        return inside(whole, path, depth + 1, true);
    if (!t.includes('\n'))
        return null;
    const lines = t.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const v = jsonIn((lines[i] ?? '').trim(), true);
        const found = (0,core_json/* isObject */.Gv)(v) || typeof v === 'string' ? inside(v, `${path} (its line ${i + 1})`, depth + 1, true) : null;
        if (found)
            return found;
    }
    return null;
}
/** The error for evidence found inside an object that is not that evidence (`holder`: what the object is). */
function wrapped(found, holder) {
    const where = found.text
        ? `the JSON text in its member ${JSON.stringify((0,core_text/* quote */.hD)(found.path, 120))}`
        : `its member ${JSON.stringify((0,core_text/* quote */.hD)(found.path, 120))}`;
    return {
        kind: 'error',
        reason: `evidence wrapped in ${holder}: ${where} is ${found.what} (a log shipper's or collector's envelope around it?); evidence is never read out of another object, and never skipped: commit the evidence itself as its producer wrote it (a decision surface as .json, evidence events as .ndjson, the server's stderr as a .log, audit records), not the object around it`,
        named: true,
    };
}
/**
 * A decision surface whose other members (beside its decisions) hold no evidence; else the error
 * that says so (a red team: an audit record under a bundle surface's `provider_records` was dropped
 * unread). Its decisions are the surface reader's, shape-checked one by one.
 */
function surfaceAlone(kind) {
    for (const [key, member] of Object.entries(kind.payload)) {
        if (key === 'observed_tool_decisions')
            continue;
        const found = inside(member, memberPath('', key), 1, false);
        if (found)
            return wrapped(found, 'a decision surface');
    }
    return kind;
}
/**
 * An object of another kind, or one that names none (`fallback`: skipped by name, or the error that
 * it names none), unless it is upstream's decision event or carries evidence inside: then an error
 * that says so and what to commit instead, never a skip (a red team: events under a log shipper's
 * `message`, a collector's `event`, or a container runtime's `log` passed as another kind).
 */
function otherKind(value, fallback) {
    const upstream = upstreamDecision(value);
    if (upstream !== null)
        return {
            kind: 'error',
            reason: `${JSON.stringify((0,core_text/* quote */.hD)(upstream, 60))} is upstream Assay's tool decision event, which this gate does not read (and never skips): it reads decisions from ${model/* SURFACE_SCHEMA */.SB} surfaces and evidence events, and from the tool_decision lines of assay-mcp-server's stderr; commit the server's stderr capture as a .log, or the decisions as an ${model/* SURFACE_SCHEMA */.SB} surface (docs/assay-server-logs.md)`,
            named: true,
        };
    // A decision carried by the object itself (in its own `fields`, or at its top) is no envelope: the
    // run readers refuse it as a decision that is not a tracing line (docs/assay-server-logs.md).
    const found = carriesDecision(value) ? null : inside(value, '', 0, false);
    return found === null ? fallback : wrapped(found, "another kind's data");
}
/** An object with a string `schema` is named by it; an evidence event (a string `type` and `data`) by its type. */
function classify(value) {
    const kind = named(value);
    if (kind.kind === 'surface')
        return surfaceAlone(kind);
    if (!(0,core_json/* isObject */.Gv)(value) || !(kind.kind === 'other' || (kind.kind === 'error' && !kind.named)))
        return kind;
    return otherKind(value, kind);
}
/** Whether a JSON value is evidence a reader takes: a surface, a record, a coverage statement or a server tracing line (as a document or an evidence event's data), or a near miss of one, or evidence wrapped in another kind's object. */
function isEvidence(v) {
    const kind = classify(v);
    return kind.kind === 'error' ? kind.named : kind.kind !== 'other';
}
/** A JSON text's value, or undefined when it is none. */
function jsonValue(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
/**
 * A line a reader takes as evidence, trimmed: a JSON object `isEvidence` takes (an evidence event,
 * an export's entry, a tracing line), or a line with an object that mentions tool_decision (the
 * server log's reader never skips one: a tracing line behind a container runtime's prefix).
 */
function evidenceLine(line) {
    const t = line.trim();
    if (t.startsWith('{') && t.endsWith('}') && isEvidence(jsonValue(t)))
        return true;
    // A quoted "tool_decision" after a brace (a JSON member, escaped or not), never prose or a jq filter that names it.
    return /\{.*\\?"tool_decision\\?"/i.test(t);
}

;// CONCATENATED MODULE: ./src/read/formats.ts
/**
 * The artifact file types the gate reads, by name: the one list of extensions. A directory input
 * means every file with one of these beneath it (a server log only under the run inputs); a file
 * ending `.intoto.jsonl` (DSSE) or `.sigstore.json` (a Sigstore bundle) is an attestation, found
 * beside its artifact and never read as a run or an export.
 */

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
/** The ends of a checksum, signature, certificate or licence file beside evidence (`x.json.sha256`, `x.json.sigstore`). */
const SIDECAR = /\.(sha1|sha224|sha256|sha384|sha512|md5|b2|(sha1|sha256|sha384|sha512|md5|b2)sums?|sig|asc|gpg|p7s|minisig|pem|crt|cert|cer|der|bundle|sigstore|sigstore\.json|license|licence)$/i;
/**
 * A file among the inputs that looks like evidence but is not read by this role: a run or export
 * compressed on its own (`.log.gz` from log rotation, `.ndjson.gz`), an archive under another name
 * than `.tar.gz` (`.tgz`, `.zip`), a rotated or renamed copy (`.log.1`, `.json.bak`), a server log
 * among audit exports. Never read and never skipped in
 * silence (the same file under its name could fail the gate). Null when it is not one.
 */
function unreadText(file, role = 'runs', exists = () => true) {
    const match = /\.(json|jsonl|ndjson|log)\.gz$/i.exec(file);
    if (match)
        return `a gzip-compressed .${(match[1] ?? '').toLowerCase()} file: receipt-gate reads runs and exports as text (and evidence bundles as .tar.gz); decompress it (gunzip) and commit the text, or move it out of the input`;
    const archive = /\.(tgz|tar|zip|gz|bz2|xz|zst|7z)$/i.exec(file);
    if (archive && formatOf(file) === null)
        return `a .${(archive[1] ?? '').toLowerCase()} file: receipt-gate reads evidence bundles as .tar.gz only (and runs and exports as text); rename a bundle to .tar.gz, or move the file out of the input`;
    // A sidecar beside evidence (a checksum, a signature, a certificate, a licence) is not a copy of it;
    // one whose file is not beside it, named for evidence (`agent.log.sig`, `x.log.bak.sig`), may be that evidence renamed.
    if (sidecarNamed(file)) {
        const of = sidecarOfWhat(file);
        if (exists(of) || (formatOf(of) === null && unreadText(of, role, exists) === null))
            return null;
        return `named like a checksum, signature or certificate of ${baseName(of)}, which is not beside it: receipt-gate reads a file by its extension, so the evidence it names is not read; keep a sidecar beside its file, give evidence its own name, or move the file out of the input`;
    }
    // A rotated, backed-up or renamed copy (`agent.log.1`, `x.json.bak`, `x.ndjson.txt`, `x.json~`).
    const renamed = /\.(json|jsonl|ndjson|log|tar\.gz)([.~_-][^/\\]*)$/i.exec(file);
    if (renamed && formatOf(file) === null)
        return `a .${(renamed[1] ?? '').toLowerCase()} file under another name (…${renamed[2] ?? ''}): receipt-gate reads a file by its extension; rename it to end in .${(renamed[1] ?? '').toLowerCase()}, or move it out of the input`;
    if (role === 'audit' && formatOf(file) === 'log')
        return 'a .log file among the audit exports: exports are read as .json, .jsonl or .ndjson (a server log is a run: give it with the runs); rename it, or move it out of the input';
    return null;
}
/** The most of a file named like a sidecar that is read to tell it from evidence renamed (64 MiB: far past any checksum list, signature, certificate, licence or attestation). */
const SIDECAR_MAX_BYTES = 64 * 1024 * 1024;
/** Whether a file is named like a checksum, signature, certificate or licence of another file (`x.json.sha256`). */
const sidecarNamed = (file) => SIDECAR.test(file) && formatOf(file) === null;
/** The file a sidecar-named file names (`x.json` for `x.json.sha256`). */
const sidecarOfWhat = (file) => file.slice(0, SIDECAR.exec(file)?.index ?? file.length);
/**
 * What a file the gate does not read by its name holds that a reader would take (`size`: its whole
 * size; `capped`, for a sidecar's name: past SIDECAR_MAX_BYTES it is evidence, as no sidecar is so large; otherwise only its first
 * SIDECAR_MAX_BYTES are looked at, as for a recording beside the runs). A run,
 * an export or a bundle renamed `x.json.sha256` beside `x.json` is not read, and a failing run so
 * renamed passed in silence. A checksum, a signature, a certificate, a licence, a Sigstore or cosign
 * bundle or a DSSE envelope holds none of it; a clear-signed copy of the file beside it holds only its
 * lines (the caller compares them).
 */
function evidenceIn(bytes, size, capped = true) {
    if (capped && size > SIDECAR_MAX_BYTES)
        return { kind: 'evidence', why: `${size} bytes, more than any checksum, signature, certificate or licence (${SIDECAR_MAX_BYTES})` };
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)
        return { kind: 'evidence', why: 'gzip bytes (an evidence bundle?)' };
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    const whole = /^\s*[{[]/.test(text) ? jsonValue(text) : undefined;
    if (isEvidence(whole) || (Array.isArray(whole) && whole.some(isEvidence)))
        return { kind: 'document', text };
    const lines = [];
    text.split('\n').forEach((line, i) => {
        if (evidenceLine(line))
            lines.push({ line: i + 1, text: line.trim() });
    });
    return lines.length > 0 ? { kind: 'lines', lines } : { kind: 'nothing' };
}
/** A path's last part, whichever separator it uses. */
const baseName = (file) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
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

// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
;// CONCATENATED MODULE: ./src/read/discover.ts
/**
 * Inputs (paths, directories, globs) → the artifact files they name, inside the workspace, sorted.
 * Nothing outside the workspace is read: a path or glob that escapes it, and a symbolic link that
 * resolves outside it, are errors; links to directories are not descended (no cycles).
 */







/**
 * Directories a walk from the workspace (or the working directory) never enters unless named
 * explicitly: a repository's own git folder and its dependencies. Under a folder the input names (an
 * evidence folder), only `.git` is passed over: a failing run committed as
 * `.assay/runs/node_modules/x.json` passed in silence (a red team).
 */
const PRUNED = new Set(['.git', 'node_modules']);
const ALWAYS_PRUNED = new Set(['.git']);
const toPosix = (p) => p.split((external_node_path_default()).sep).join('/');
/** What kind of special file a path is, for messages. */
function special(path) {
    try {
        const st = (0,external_node_fs_.statSync)(path);
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
/**
 * Whether `where` is `root` or below it, by their text (resolve links first to compare where they
 * lead). A name that only begins with two dots (`..cache`) is below it: only a `..` segment leads up
 * (a red team's `--cache ..cache` in the checkout passed as outside it).
 */
const discover_inside = (root, where) => {
    const rel = external_node_path_default().relative(root, where);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${(external_node_path_default()).sep}`) && !external_node_path_default().isAbsolute(rel));
};
const relOf = (w, abs) => toPosix(external_node_path_default().relative(w.cwd, abs));
/** An input as a finding names it: its role and the value as given (`runs: .assay/run`). */
const discover_named = (w, input) => `${w.role}: ${input}`;
const where = (rel) => ({ file: rel, line: 1, column: 1 });
/** Whether a walk starts at the workspace itself (or the working directory): it passes over dependencies and what is not read by name. */
const fromTheTop = (state, dir) => {
    const from = external_node_path_default().resolve(dir);
    return from === external_node_path_default().resolve(state.workspace) || from === external_node_path_default().resolve(state.cwd);
};
/**
 * Every regular file under `dir` (and in-workspace links to one), into `take`; problems into
 * `findings`. `inScope` says whether an entry is named by the input at all (a glob's match): one it
 * does not name is never taken and never reported, whatever it is.
 */
function walk(state, dir, input, take, findings, inScope = () => true) {
    const stack = [dir];
    const pruned = fromTheTop(state, dir) ? PRUNED : ALWAYS_PRUNED;
    while (stack.length > 0) {
        const digest = stack.pop();
        let list;
        try {
            list = (0,external_node_fs_.readdirSync)(digest, { withFileTypes: true });
        }
        catch (error) {
            findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(relOf(state, digest) || '.'), `cannot read directory: ${(0,core_text/* messageOf */.bD)(error)}`));
            continue;
        }
        for (const ent of list) {
            if (++state.entries > read_limits/* MAX_WALK_ENTRIES */.MH) {
                findings.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', discover_named(state, input), `more than ${read_limits/* MAX_WALK_ENTRIES */.MH} entries under the inputs; narrow the paths`));
                return;
            }
            const abs = external_node_path_default().join(digest, ent.name);
            // A name that is not UTF-8 decodes with U+FFFD: two such names can decode alike, and one then hides
            // the other (a red team: a failing run behind a decoy of the same decoded name). Never read by name.
            if (ent.name.includes('\uFFFD') && (ent.isDirectory() || inScope(abs))) {
                findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(relOf(state, abs)), `a ${ent.isDirectory() ? 'folder' : 'file'} whose name is not UTF-8 (it reads as U+FFFD): names that are not UTF-8 can read alike and hide one another; rename it`));
                continue;
            }
            if (ent.isDirectory()) {
                if (!pruned.has(ent.name))
                    stack.push(abs);
            }
            else if (!inScope(abs)) {
                // Not named by the input: neither read nor reported.
            }
            else if (ent.isFile()) {
                take(abs);
            }
            else if (ent.isSymbolicLink()) {
                discover_link(state, abs, take, findings);
            }
            else if (formatOf(ent.name) === 'attestation') {
                take(abs); // refused once, beside its artifact (gate/evidence.ts), or an orphan
            }
            else if (formatOf(ent.name) !== null) {
                // A FIFO, socket or device with an artifact's name is never read, and never dropped silently.
                findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(relOf(state, abs)), `not a regular file (${special(abs)}); not read`));
            }
        }
    }
}
/**
 * A symbolic link met in a walk: followed to a regular file inside the workspace, never out of it,
 * never into a directory. An attestation's name is taken whatever it leads to: it is read beside
 * its artifact, which refuses it once (gate/evidence.ts), or it is an orphan.
 */
function discover_link(walk, abs, take, findings) {
    const rel = relOf(walk, abs);
    if (formatOf(abs) === 'attestation') {
        take(abs);
        return;
    }
    let real;
    try {
        real = (0,external_node_fs_.realpathSync)(abs);
    }
    catch {
        // A broken link with an artifact's name is never dropped silently; one with another name would not be read if it resolved.
        if (formatOf(abs) !== null)
            findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(rel), 'broken symbolic link'));
        return;
    }
    if (!discover_inside(walk.realWorkspace, real)) {
        findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(rel), 'symbolic link points outside the workspace; not followed'));
        return;
    }
    let st;
    try {
        st = (0,external_node_fs_.statSync)(real);
    }
    catch {
        return;
    }
    if (st.isFile())
        take(abs);
    else if (st.isDirectory())
        // Never silent: a linked folder of bundles would otherwise drop out of the gate with a notice.
        findings.push((0,core_findings/* finding */.gk)('no_match', where(rel), 'symbolic link to a directory; not descended (name the folder it leads to as an input)', 'warning'));
    else if (formatOf(abs) !== null)
        findings.push((0,core_findings/* finding */.gk)('invalid_artifact', where(rel), `symbolic link to something that is not a regular file (${special(real)}); not read`));
}
/** Whether a regular file is at `p` (a folder of the same name is none: a red team hid a renamed run behind one). */
const isFile = (p) => {
    try {
        return (0,external_node_fs_.statSync)(p).isFile();
    }
    catch {
        return false;
    }
};
/** A file's bytes, up to `max` (and its whole size). */
function head(abs, max) {
    const fd = (0,external_node_fs_.openSync)(abs, 'r');
    try {
        const size = (0,external_node_fs_.fstatSync)(fd).size;
        const bytes = Buffer.alloc(Math.min(size, max));
        let got = 0;
        while (got < bytes.length) {
            const n = (0,external_node_fs_.readSync)(fd, bytes, got, bytes.length - got, got);
            if (n === 0)
                break;
            got += n;
        }
        return { bytes: bytes.subarray(0, got), size };
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/** Which of `wanted` (trimmed lines) are not lines of the file at `abs`, read a chunk at a time. */
function linesMissing(abs, wanted) {
    const missing = new Set(wanted);
    const fd = (0,external_node_fs_.openSync)(abs, 'r');
    try {
        const chunk = Buffer.alloc(1 << 20);
        let carry = '';
        let position = 0;
        for (;;) {
            const n = (0,external_node_fs_.readSync)(fd, chunk, 0, chunk.length, position);
            position += n;
            const text = carry + (n > 0 ? chunk.toString('utf8', 0, n) : '\n');
            const lines = text.split('\n');
            carry = n > 0 ? (lines.pop() ?? '') : '';
            for (const line of lines)
                missing.delete(line.trim());
            if (n === 0 || missing.size === 0)
                return missing;
        }
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/**
 * Why a file the gate does not read by its name (a sidecar's, an attestation's, any other) holds
 * evidence (formats.ts `evidenceIn`), located, or null. What is only a copy of the file beside it
 * (`of`: its path, or null; a clear-signed log's lines, a document of the same text) holds nothing
 * unread. A file that cannot be read is said: what it holds is unknown.
 */
function evidenceHeldBy(abs, of, capped = true) {
    try {
        const { bytes, size } = head(abs, SIDECAR_MAX_BYTES);
        const held = evidenceIn(bytes, size, capped);
        const beside = of !== null && isFile(of);
        switch (held.kind) {
            case 'nothing':
                return null;
            case 'evidence':
                return { line: 1, why: held.why };
            case 'document': {
                // A copy is the same text (a document JSON.parse reads alike could hold a key twice, which the reader refuses: a red team).
                const copy = beside && of !== null && (0,external_node_fs_.readFileSync)(of, 'utf8').trim() === held.text.trim();
                return copy ? null : { line: 1, why: 'a JSON document the gate reads as evidence (a run or an export?)' };
            }
            case 'lines': {
                const missing = beside && of !== null ? linesMissing(of, new Set(held.lines.map((l) => l.text))) : null;
                const first = held.lines.find((l) => missing === null || missing.has(l.text));
                return first
                    ? {
                        line: first.line,
                        why: `a line the gate reads as evidence${beside ? ' that the file beside it does not hold' : ''} (an evidence event, an export entry or a server tracing line?)`,
                    }
                    : null;
            }
        }
    }
    catch (e) {
        return { line: 1, why: `it cannot be read (${(0,core_text/* messageOf */.bD)(e)}), so what it holds is unknown` };
    }
}
/** One input (a path, a directory or a glob) → the files it names and what went wrong. */
function expand(state, input, noMatch) {
    const findings = [];
    const files = [];
    const attestations = [];
    const add = (abs) => {
        files.push({ path: abs, rel: relOf(state, abs) });
    };
    /**
     * A file that is not an artifact of this role but is not ignored either: an attestation (read
     * beside its artifact) or evidence this role does not read (compressed on its own, an archive not
     * named .tar.gz, a server log among exports: refused by name). False: neither.
     */
    /**
     * @param sniff the file is under a folder the input names (not the workspace itself): a file there the
     *   gate does not read by its name is read to see whether it holds evidence (a red team: a failing run
     *   as `incident.json ` with a trailing space, `incident.json#1`, `incident.txt` passed in silence)
     */
    const besideArtifacts = (abs, sniff = false) => {
        if (formatOf(abs) === 'attestation') {
            attestations.push({ path: abs, rel: relOf(state, abs) });
            return true;
        }
        const unread = unreadText(abs, state.role, isFile);
        if (unread !== null) {
            // A .log among the exports may be the export job's own log: said (a warning), never dropped; one that
            // holds evidence (a coverage statement, records, an agent's server log saved there) is an error: that
            // evidence is not read (a red team: an import's output saved as .log, and a failing run, passed).
            const exportLog = state.role === 'audit' && formatOf(abs) === 'log';
            const held = exportLog && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
            const at = { file: relOf(state, abs), line: held?.line ?? 1, column: 1 };
            if (held)
                findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at, `${unread}; it holds ${held.why}: this evidence is not read`));
            else
                findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at, unread, exportLog ? 'warning' : undefined));
            return true;
        }
        if (!sidecarNamed(abs)) {
            const held = sniff && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
            if (held)
                findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: relOf(state, abs), line: held.line, column: 1 }, `a file the gate does not read by its name (it reads ${EXTENSION_LIST}), but it holds ${held.why}: this evidence is not read; give it its name, or move it out of the input`));
            return held !== null;
        }
        // Named like a sidecar of the file beside it: one that holds evidence is that evidence renamed, not read.
        const of = sidecarOfWhat(abs);
        const held = isFile(abs) ? evidenceHeldBy(abs, of) : null;
        if (held)
            findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: relOf(state, abs), line: held.line, column: 1 }, `named like a checksum, signature, certificate or licence${isFile(of) ? ' of the file beside it' : ''}, but it holds ${held.why}: receipt-gate reads a file by its extension, so this evidence is not read; give it its own name, or move it out of the input`));
        return held !== null;
    };
    const { base, glob } = inputRoot(state.cwd, input);
    if (!discover_inside(state.workspace, base)) {
        findings.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', discover_named(state, input), `"${input}" is outside the workspace (${state.workspace}); not read`));
        return { files, findings, attestations };
    }
    let st;
    try {
        st = (0,external_node_fs_.lstatSync)(base);
    }
    catch {
        // A default that is absent is no input (a missing .assay/audit means no exports): only an input given explicitly says so.
        const why = glob ? 'no such directory' : 'no such file or directory';
        if (noMatch === 'error')
            findings.push((0,core_findings/* inputFinding */.uY)('no_match', discover_named(state, input), `"${input}" matched no file (${why})`, noMatch));
        return { files, findings, attestations };
    }
    // Lexically inside is not enough: the input, or any directory above it, may be a link out.
    let real = '';
    try {
        real = (0,external_node_fs_.realpathSync)(base);
    }
    catch {
        /* a broken link: reported below */
    }
    if (!real || !discover_inside(state.realWorkspace, real)) {
        findings.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', discover_named(state, input), `"${input}" resolves (through a symbolic link) to outside the workspace; not followed`));
        return { files, findings, attestations };
    }
    if (st.isSymbolicLink())
        st = (0,external_node_fs_.statSync)(real);
    // A walk from the workspace itself (or the working directory) passes over what is not read by name.
    const sniff = !fromTheTop(state, base);
    if (glob) {
        const match = picomatch_default()(relOf(state, external_node_path_default().resolve(state.cwd, input)), { dot: true });
        let ignored = 0;
        walk(state, base, input, (abs) => {
            const rel = relOf(state, abs);
            if (discoverable(rel, state.role))
                add(abs);
            else if (!besideArtifacts(abs, sniff))
                ignored++;
        }, findings, (abs) => match(relOf(state, abs)));
        if (ignored > 0)
            findings.push((0,core_findings/* inputFinding */.uY)('no_match', discover_named(state, input), `"${input}" matched ${ignored} file(s) that are not ${EXTENSION_LIST}; not read`));
    }
    else if (st.isDirectory()) {
        walk(state, base, input, (abs) => (discoverable(abs, state.role) ? add(abs) : besideArtifacts(abs, sniff)), findings);
    }
    else if (st.isFile()) {
        if (!besideArtifacts(base))
            add(base);
    }
    else {
        findings.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', discover_named(state, input), `"${input}" is not a regular file or directory`));
        return { files, findings, attestations };
    }
    if (files.length === 0)
        findings.push((0,core_findings/* inputFinding */.uY)('no_match', discover_named(state, input), `"${input}" matched no artifact file`, noMatch));
    return { files, findings, attestations };
}
/**
 * @param all       paths, directories or globs, relative to `cwd`; one that starts with `!` is a
 *                  glob that excludes what it matches from the others' files
 * @param cwd       the working directory (names in reports are relative to it)
 * @param workspace nothing outside this directory is read
 * @param explicit  the inputs were given explicitly: one that matches nothing is an error, not a notice
 */
/** Where an input starts: its file or folder, or a glob's fixed folder (absolute), and whether it is a glob. */
function inputRoot(cwd, input) {
    const scan = picomatch_default().scan(input);
    return { base: external_node_path_default().resolve(cwd, scan.isGlob ? scan.base || '.' : input), glob: scan.isGlob };
}
function discover(all, cwd, workspace, explicit = false, role = 'runs') {
    const trimmed = all.map((i) => i.trim());
    const excludes = trimmed
        .filter((i) => i.startsWith('!'))
        .map((i) => picomatch_default()(toPosix(external_node_path_default().relative(cwd, external_node_path_default().resolve(cwd, i.slice(1)))), { dot: true }));
    let realWorkspace;
    try {
        realWorkspace = (0,external_node_fs_.realpathSync)(workspace);
    }
    catch {
        realWorkspace = external_node_path_default().resolve(workspace);
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
    const kept = (m) => [...m.values()].filter((f) => !excludes.some((x) => x(f.rel))).sort((a, b) => (0,core_text/* cmp */.r2)(a.rel, b.rel));
    return { files: kept(found), findings, attestations: kept(attestations) };
}

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
    if (!(0,core_json/* isObject */.Gv)(want))
        return got === want ? null : `predicate field ${at} disagrees with the bundle`;
    if (!(0,core_json/* isObject */.Gv)(got))
        return `predicate field ${at} disagrees with the bundle`;
    for (const k of Object.keys(want)) {
        if (!(0,core_json/* hasOwn */.$3)(got, k))
            return `predicate field ${member(at, k)} disagrees with the bundle`;
        const digest = difference(want[k], got[k], member(at, k));
        if (digest)
            return digest;
    }
    for (const k of Object.keys(got))
        if (!(0,core_json/* hasOwn */.$3)(want, k))
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
    if (!(0,core_json/* isObject */.Gv)(value) || value['_type'] !== read_envelope/* STATEMENT_TYPE */.zG)
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
    if (!(0,core_json/* isObject */.Gv)(pred) || pred['schema_version'] !== 1)
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
const isObjectPredicate = (p) => ((0,core_json/* isObject */.Gv)(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });
/** The roots of a set-up, parsed once per thread (the gate parses them first, so a root that cannot be used stops it before any file). */
const loaded = new WeakMap();
let publicGood = null;
function rootsOf(source, limits) {
    const load = async () => {
        const { rootsFrom } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(842)]).then(__nccwpck_require__.bind(__nccwpck_require__, 3842));
        return rootsFrom(source, limits);
    };
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
    if (formatOf(file.rel) !== 'bundle')
        return { type: RUN_V1, check: isObjectPredicate };
    const facts = file.read.bundle;
    if (!facts)
        return (0,core_trust/* refused */.J5)('statement_mismatch', 'the bundle does not verify');
    return { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) };
}
async function decide(file, policy, source, limits) {
    const beside = file.sigstore;
    const name = sigstoreOf(file.rel);
    if (beside.kind === 'none')
        return (0,core_trust/* refused */.J5)('no_attestation', `no attestation (no ${sigstoreOf(file.rel.split('/').pop() ?? file.rel)} beside it)`);
    if (beside.kind === 'refused')
        return (0,core_trust/* refused */.J5)('attestation_malformed', `${name}: ${beside.reason}`);
    const predicate = predicateFor(file);
    if ('kind' in predicate)
        return predicate;
    const roots = await rootsOf(source, limits);
    // The gate loaded these same bytes before anything was read: if they fail here, so does the file.
    if (!roots.ok)
        return (0,core_trust/* refused */.J5)('attestation_malformed', `the trusted root cannot be used: ${roots.reason}`);
    const { checkBundles } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(842)]).then(__nccwpck_require__.bind(__nccwpck_require__, 3842));
    const sha256 = file.read.sha256 ?? '';
    const checked = checkBundles(beside.file, { subject: { name: file.rel, sha256 }, policy, roots: roots.value, predicate }, limits);
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

// EXTERNAL MODULE: ./src/trust/public-good-root.generated.ts
var public_good_root_generated = __nccwpck_require__(6419);
;// CONCATENATED MODULE: ./src/trust/shipped-root.ts
/**
 * When the Sigstore root shipped with receipt-gate was taken (the pinned @sigstore/tuf release,
 * scripts/gen-trusted-root.mjs) and how old it may grow before the gate warns (docs/keyless.md).
 * Apart from trust/sigstore.ts, so that knowing the date does not load the Sigstore code.
 */

const SHIPPED_ROOT_TAKEN = public_good_root_generated/* PUBLIC_GOOD_ROOT */.F.origin.taken;
const SHIPPED_ROOT_MAX_AGE_DAYS = 180;

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
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
const coverage_statement_count = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A statement's members, checked; or why it is not a statement. */
function checkStatement(value) {
    const bad = (reason) => ({ ok: false, reason: `coverage statement: ${reason}` });
    for (const k of Object.keys(value))
        if (k !== 'signature' && k !== 'exported_at' && !MEMBERS.includes(k))
            return bad(`unknown member ${JSON.stringify((0,core_text/* quote */.hD)(k, 60))}`);
    for (const k of MEMBERS)
        if (!(0,core_json/* hasOwn */.$3)(value, k))
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
    // When the import ran (docs/coverage.md §6); statements written before it have none.
    if ((0,core_json/* hasOwn */.$3)(value, 'exported_at')) {
        const at = value['exported_at'];
        const t = typeof at === 'string' ? (0,core_time/* parseRfc3339 */.TM)(at) : null;
        if (!t?.ok)
            return bad('exported_at must be an RFC 3339 time (a string)');
        if ((0,core_time/* compareInstants */.QI)(t.value, until) < 0)
            return bad('exported_at is before until: a window is exported once it has ended');
    }
    const entries = value['entries_read'];
    const records = value['records'];
    if (!coverage_statement_count(entries))
        return bad('entries_read must be a non-negative integer');
    if (!coverage_statement_count(records))
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
;// CONCATENATED MODULE: ./src/read/file-read.ts
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
    return (0,core_findings/* finding */.gk)('skipped_object', at, `skipped ${total} object(s) of other kinds: ${kinds}`);
}

// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
;// CONCATENATED MODULE: ./src/read/provider-exports.ts
/**
 * What a provider's own export entries look like (docs/importers.md), by kind: what tells an export
 * of the wrong kind to `import`, and a raw export committed where audit records belong to the gate.
 * A leaf: the importers (tools/import/) and the audit reader both ask it.
 */

const EXPORT_KINDS = {
    'github-audit-log': 'a GitHub audit-log export',
    'github-webhook': 'GitHub webhook deliveries',
    'slack-audit-log': 'a Slack audit-log page',
    'aws-cloudtrail': 'an AWS CloudTrail log file or lookup-events output',
    'k8s-audit': 'a Kubernetes audit log (audit.k8s.io/v1 events)',
    'okta-system-log': 'an Okta System Log page',
};
/** Whether an entry has the shape of each kind's entries. */
const EXPORT_SHAPES = {
    'github-audit-log': (e) => typeof e['action'] === 'string' &&
        !(0,core_json/* isObject */.Gv)(e['entity']) &&
        ((0,core_json/* hasOwn */.$3)(e, '_document_id') || (0,core_json/* hasOwn */.$3)(e, '@timestamp') || (0,core_json/* hasOwn */.$3)(e, 'created_at')),
    'github-webhook': (e) => (typeof e['guid'] === 'string' && ((0,core_json/* isObject */.Gv)(e['request']) || (0,core_json/* hasOwn */.$3)(e, 'delivered_at') || (0,core_json/* hasOwn */.$3)(e, 'event'))) ||
        ((0,core_json/* isObject */.Gv)(e['key']) && (0,core_json/* isObject */.Gv)(e['repository'])),
    'slack-audit-log': (e) => typeof e['action'] === 'string' && !(0,core_json/* hasOwn */.$3)(e, '_document_id') && ((0,core_json/* isObject */.Gv)(e['entity']) || (0,core_json/* isObject */.Gv)(e['context'])),
    'aws-cloudtrail': (e) => (typeof e['eventID'] === 'string' && typeof e['eventSource'] === 'string') || typeof e['CloudTrailEvent'] === 'string',
    'k8s-audit': (e) => e['kind'] === 'Event' && typeof e['auditID'] === 'string' && typeof e['apiVersion'] === 'string',
    'okta-system-log': (e) => typeof e['uuid'] === 'string' && typeof e['eventType'] === 'string' && (0,core_json/* hasOwn */.$3)(e, 'published'),
};
/** The export kind a value (an entry, or a page object with a list of entries) looks like, or null. */
function exportKindOf(value) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    const list = Object.values(value).find((v) => Array.isArray(v) && (0,core_json/* isObject */.Gv)(v[0]));
    const candidates = [value, ...(list && (0,core_json/* isObject */.Gv)(list[0]) ? [list[0]] : [])];
    for (const kind of Object.keys(EXPORT_SHAPES))
        if (candidates.some((c) => EXPORT_SHAPES[kind](c)))
            return kind;
    return null;
}

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
const claims_NONE = Object.freeze([]);
/** §4: the producer asserts exactly `effect == allow && status == success`; anything else asserted is a contradiction. */
function assertedAgainstOutcome(decision, response) {
    const value = decision['decision'];
    const effect = (0,core_json/* isObject */.Gv)(value) ? value['effect'] : undefined;
    if (effect === 'deny' || effect === 'error')
        return `side_effect_asserted is true while decision.effect is "${effect}": a call that was not allowed cannot have changed anything`;
    const status = response['status'];
    if (status !== 'success')
        return `side_effect_asserted is true while response.status is ${JSON.stringify(typeof status === 'string' ? status.slice(0, 60) : (status ?? null))}, not "success"`;
    return null;
}
function readClaim(decision) {
    const response = decision['response'];
    if (!(0,core_json/* isObject */.Gv)(response))
        return { kind: 'invalid', reason: 'response is not an object' };
    const asserted = response['side_effect_asserted'];
    if (typeof asserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect_asserted is not a boolean' };
    const legacyVerified = response['side_effect_verified'];
    if ((0,core_json/* hasOwn */.$3)(response, 'side_effect_verified') && typeof legacyVerified !== 'boolean') {
        return { kind: 'invalid', reason: 'response.side_effect_verified is not a boolean' };
    }
    const problems = [];
    const contradiction = asserted ? assertedAgainstOutcome(decision, response) : null;
    if (contradiction)
        problems.push(contradiction);
    if (!(0,core_json/* hasOwn */.$3)(response, 'side_effect')) {
        const level = legacyVerified === true ? 'verified' : 'asserted';
        if (level !== 'asserted' && !asserted)
            problems.push(`claims "${level}" while side_effect_asserted is false`);
        return {
            kind: 'claim',
            claim: { asserted, level, digest: null, legacy: level === 'verified' },
            inconsistencies: problems.length ? problems : claims_NONE,
        };
    }
    const block = response['side_effect'];
    if (!(0,core_json/* isObject */.Gv)(block))
        return { kind: 'invalid', reason: 'response.side_effect is not an object' };
    const blockAsserted = block['asserted'];
    const level = block['level'];
    if (typeof blockAsserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect.asserted is not a boolean' };
    if (typeof level !== 'string' || !vocabulary/* LEVELS */.A_.includes(level)) {
        return { kind: 'invalid', reason: `response.side_effect.level must be one of ${vocabulary/* LEVELS */.A_.join(', ')}` };
    }
    const claimed = level;
    const source = (0,core_json/* hasOwn */.$3)(block, 'verification_source') ? block['verification_source'] : null;
    const digestValue = (0,core_json/* hasOwn */.$3)(block, 'verification_subject_digest') ? block['verification_subject_digest'] : null;
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
    if ((0,core_json/* hasOwn */.$3)(response, 'side_effect_verified') && legacyVerified !== (claimed === 'verified')) {
        problems.push(`side_effect_verified (${legacyVerified}) contradicts level "${claimed}"`);
    }
    if (claimed !== 'asserted' && !asserted) {
        problems.push(`claims "${claimed}" while side_effect_asserted is false`);
    }
    return {
        kind: 'claim',
        claim: { asserted, level: claimed, digest: digestValue, legacy: false },
        inconsistencies: problems.length ? problems : claims_NONE,
    };
}

;// CONCATENATED MODULE: ./src/core/decision.ts
/**
 * A parsed decision → the few facts verification reads (claim, subject, denial, provider, status).
 * Readers call this as each decision is read, so a run's parsed JSON is never held past its file.
 */



/**
 * Labels: what a policy rule's target fields match when the call has no subject (docs/policy.md §3:
 * "a plain field matches when the call's target has that field as a string"). For a class outside
 * the binding table, every member of action.target (the reader's limits bound how many: a cap
 * here dropped a field a rule named, and its call escaped the rule: a red team); for a class of the
 * table whose call has no subject (a verb missing, a field of the wrong type), its bound fields (a
 * red team: such a call escaped every rule that names a target field). A field that is not text is
 * kept as it is: a rule testing it cannot tell, and says so (policy.ts `untoldWhy`). Else null.
 */
function labelsOf(actionClass, target, subject) {
    if (typeof actionClass !== 'string' || !(0,core_json/* isObject */.Gv)(target))
        return null;
    const bound = boundFields(actionClass);
    if (bound && subject)
        return null;
    const out = {};
    // Every field as given: one that is not text is kept so a rule naming it cannot tell, never passes it over.
    for (const field of bound ?? Object.keys(target))
        if ((0,core_json/* hasOwn */.$3)(target, field))
            out[field] = target[field];
    return out;
}
/**
 * @param time  when the decision was made, where its format says (a server log line's timestamp, an
 *              evidence event's time); null for a decision surface, which has none
 * @param begun when the call's request began, where its format says (a server log's tool_call_start
 *              line); null where it has no such time
 */
function prepareDecision(loc, index, decision, time = null, begun = null) {
    const tool = decision['tool'];
    const value = decision['decision'];
    const action = decision['action'];
    const target = (0,core_json/* isObject */.Gv)(action) ? action['target'] : undefined;
    const given = (0,core_json/* isObject */.Gv)(target) && (0,core_json/* hasOwn */.$3)(target, 'provider') ? target['provider'] : null;
    const response = decision['response'];
    const projection = project(decision);
    return {
        loc,
        index,
        tool: (0,core_json/* isObject */.Gv)(tool) && typeof tool['name'] === 'string' ? tool['name'] : null,
        claim: readClaim(decision),
        projection,
        actionClass: (0,core_json/* isObject */.Gv)(action) && typeof action['resource_type'] === 'string' ? action['resource_type'] : null,
        verb: (0,core_json/* isObject */.Gv)(action) && typeof action['verb'] === 'string' ? action['verb'] : null,
        denied: (0,core_json/* isObject */.Gv)(value) && (value['effect'] === 'deny' || value['effect'] === 'error') ? value['effect'] : false,
        provider: given === null || typeof given === 'string' ? given : { invalid: true },
        succeeded: (0,core_json/* isObject */.Gv)(response) && response['status'] === 'success',
        labels: labelsOf((0,core_json/* isObject */.Gv)(action) ? action['resource_type'] : undefined, target, projection.kind === 'subject'),
        time,
        begun,
    };
}

// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
// EXTERNAL MODULE: ./node_modules/ajv/dist/runtime/ucs2length.js
var ucs2length = __nccwpck_require__(6214);
;// CONCATENATED MODULE: ./src/read/validators.generated.js
// Generated by scripts/gen-validators.mjs from schemas/; do not edit.
const decision = validate1;
const schema1 = {"description":"One recorded tool call. A call can only be verified when action.resource_type, action.verb and action.target yield a subject (see the semantics document, section 2).","type":"object","required":["response"],"properties":{"tool":{"type":"object","properties":{"name":{"type":["string","null"],"maxLength":1024,"description":"The MCP tool name; longer than 1024 characters is refused (it is printed in annotations and summaries)."},"category":{"type":["string","null"]}}},"action":{"description":"What the call does. Missing or non-string resource_type/verb, or a non-object target, leave the call without a subject (never verified) rather than invalid.","type":["object","null"],"properties":{"resource_type":{"description":"The action class: github_deploy_key, workspace_member or workspace_role bind; other classes cannot be verified."},"verb":{},"target":{"description":"Only the fields bound for the class are hashed; provider selects which audit records may bind; read_only is never bound.","properties":{"provider":{"type":["string","null"]}}}}},"decision":{"type":"object","properties":{"effect":{"enum":["allow","deny","error"],"description":"Exactly allow, deny or error when present (upstream's server writes error for a call that failed): a denied or failed call is never promoted and never confirms another."}}},"response":{"type":"object","required":["side_effect_asserted"],"properties":{"status":{"description":"\"success\" on a read makes it able to confirm an earlier write."},"side_effect_asserted":{"type":"boolean"},"side_effect_verified":{"type":"boolean","description":"Legacy claim: true without a side_effect block claims verified (no digest)."},"side_effect":{"type":"object","required":["asserted","level"],"properties":{"asserted":{"type":"boolean"},"level":{"enum":["asserted","observed_confirmed","verified"]},"verification_source":{"type":["string","null"],"description":"null for asserted, observed_read_followup for observed_confirmed, provider_audit_import for verified."},"verification_subject_digest":{"type":["string","null"],"description":"The claimed binding of the call subject (sha256:<64 hex>); null for asserted."}}}}}}};

const func0 = ucs2length["default"] ?? ucs2length;

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
const policySchema0 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call (or a record) may wait for the export (or the run) that matches it (docs/coverage.md, docs/policy.md §12): whole units d, h, m in that order (72h, 3d, 1d12h, 90m), at most 30d; 0 (the number or the string, the default): nothing is ever pending.","type":["string","integer"],"pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, and audit files whose trust is not asked, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}},"trust":{"$ref":"#/$defs/trust"}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"strings":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"trust":{"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}}}};
const policySchema1 = {"enum":["asserted","observed_confirmed","verified"]};
const policySchema9 = {"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}};
const policyPattern0 = new RegExp("^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$", "u");
const policyPattern5 = new RegExp("^[0-9a-f]{64}$", "u");
const policySchema2 = {"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}};
const policySchema3 = {"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"};
const policySchema4 = {"type":"string","minLength":1};
const policyPattern1 = new RegExp("^[a-z0-9][a-z0-9-]{0,63}$", "u");
const policyPattern2 = new RegExp("^(https://\\S+|sha256:[0-9a-f]{64})$", "u");
const policyFunc0 = ucs2length["default"] ?? ucs2length;

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

const policySchema10 = {"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}};
const policySchema11 = {"type":"array","minItems":1,"items":{"type":"string","minLength":1}};
const policySchema12 = {"type":"array","minItems":1,"items":{"type":"string","minLength":1}};
const policyFunc10 = Object.prototype.hasOwnProperty;

function policyValidate5(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(policyFunc10.call(policySchema10.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.mode !== undefined){
let data0 = data.mode;
if(!((data0 === "enforce") || (data0 === "warn"))){
const err1 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/enum",keyword:"enum",params:{allowedValues: policySchema10.properties.mode.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data["trusted-keys"] !== undefined){
let data1 = data["trusted-keys"];
if(Array.isArray(data1)){
if(data1.length < 1){
const err2 = {instancePath:instancePath+"/trusted-keys",schemaPath:"#/$defs/paths/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err3 = {instancePath:instancePath+"/trusted-keys/" + i0,schemaPath:"#/$defs/paths/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/trusted-keys/" + i0,schemaPath:"#/$defs/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/trusted-keys",schemaPath:"#/$defs/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data["trusted-signer-identities"] !== undefined){
let data3 = data["trusted-signer-identities"];
if(Array.isArray(data3)){
if(data3.length < 1){
const err6 = {instancePath:instancePath+"/trusted-signer-identities",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(policyFunc0(data4) < 1){
const err7 = {instancePath:instancePath+"/trusted-signer-identities/" + i1,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/trusted-signer-identities/" + i1,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/trusted-signer-identities",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data["require-signed-records"] !== undefined){
if(typeof data["require-signed-records"] !== "boolean"){
const err10 = {instancePath:instancePath+"/require-signed-records",schemaPath:"#/properties/require-signed-records/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data["trusted-producers"] !== undefined){
let data6 = data["trusted-producers"];
if(Array.isArray(data6)){
if(data6.length < 1){
const err11 = {instancePath:instancePath+"/trusted-producers",schemaPath:"#/$defs/paths/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
const len2 = data6.length;
for(let i2=0; i2<len2; i2++){
let data7 = data6[i2];
if(typeof data7 === "string"){
if(policyFunc0(data7) < 1){
const err12 = {instancePath:instancePath+"/trusted-producers/" + i2,schemaPath:"#/$defs/paths/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err13 = {instancePath:instancePath+"/trusted-producers/" + i2,schemaPath:"#/$defs/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/trusted-producers",schemaPath:"#/$defs/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data["trusted-producer-identities"] !== undefined){
let data8 = data["trusted-producer-identities"];
if(Array.isArray(data8)){
if(data8.length < 1){
const err15 = {instancePath:instancePath+"/trusted-producer-identities",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len3 = data8.length;
for(let i3=0; i3<len3; i3++){
let data9 = data8[i3];
if(typeof data9 === "string"){
if(policyFunc0(data9) < 1){
const err16 = {instancePath:instancePath+"/trusted-producer-identities/" + i3,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err17 = {instancePath:instancePath+"/trusted-producer-identities/" + i3,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
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
const err18 = {instancePath:instancePath+"/trusted-producer-identities",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data["require-attested-runs"] !== undefined){
if(typeof data["require-attested-runs"] !== "boolean"){
const err19 = {instancePath:instancePath+"/require-attested-runs",schemaPath:"#/properties/require-attested-runs/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data["source-refs"] !== undefined){
let data11 = data["source-refs"];
if(Array.isArray(data11)){
if(data11.length < 1){
const err20 = {instancePath:instancePath+"/source-refs",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
const len4 = data11.length;
for(let i4=0; i4<len4; i4++){
let data12 = data11[i4];
if(typeof data12 === "string"){
if(policyFunc0(data12) < 1){
const err21 = {instancePath:instancePath+"/source-refs/" + i4,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/source-refs/" + i4,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/source-refs",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data["certificate-oidc-issuer"] !== undefined){
let data13 = data["certificate-oidc-issuer"];
if(typeof data13 === "string"){
if(policyFunc0(data13) < 1){
const err24 = {instancePath:instancePath+"/certificate-oidc-issuer",schemaPath:"#/properties/certificate-oidc-issuer/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/certificate-oidc-issuer",schemaPath:"#/properties/certificate-oidc-issuer/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data["trusted-root"] !== undefined){
let data14 = data["trusted-root"];
if(typeof data14 === "string"){
if(policyFunc0(data14) < 1){
const err26 = {instancePath:instancePath+"/trusted-root",schemaPath:"#/properties/trusted-root/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/trusted-root",schemaPath:"#/properties/trusted-root/type",keyword:"type",params:{type: "string"},message:"must be string"};
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
policyValidate5.errors = vErrors;
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
if(!(((((((key0 === "version") || (key0 === "default")) || (key0 === "pending")) || (key0 === "rules")) || (key0 === "exceptions")) || (key0 === "grandfathered")) || (key0 === "trust"))){
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
if((typeof data2 !== "string") && (!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2))))){
const err4 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/type",keyword:"type",params:{type: policySchema0.properties.pending.type},message:"must be string,integer"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(typeof data2 === "string"){
if(!policyPattern0.test(data2)){
const err5 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/pattern",keyword:"pattern",params:{pattern: "^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},message:"must match pattern \""+"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"+"\""};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
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
if(data8.sha256 === undefined){
const err8 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "sha256"},message:"must have required property '"+"sha256"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data8.reason === undefined){
const err9 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
for(const key1 in data8){
if(!((((key1 === "run") || (key1 === "audit")) || (key1 === "sha256")) || (key1 === "reason"))){
const err10 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data8.run !== undefined){
let data9 = data8.run;
if(typeof data9 === "string"){
if(policyFunc0(data9) < 1){
const err11 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data8.audit !== undefined){
let data10 = data8.audit;
if(typeof data10 === "string"){
if(policyFunc0(data10) < 1){
const err13 = {instancePath:instancePath+"/grandfathered/" + i2+"/audit",schemaPath:"#/$defs/grandfathered/properties/audit/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err14 = {instancePath:instancePath+"/grandfathered/" + i2+"/audit",schemaPath:"#/$defs/grandfathered/properties/audit/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data8.sha256 !== undefined){
let data11 = data8.sha256;
if(typeof data11 === "string"){
if(!policyPattern5.test(data11)){
const err15 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{64}$"},message:"must match pattern \""+"^[0-9a-f]{64}$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data8.reason !== undefined){
let data12 = data8.reason;
if(typeof data12 === "string"){
if(policyFunc0(data12) < 1){
const err17 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
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
const err19 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/type",keyword:"type",params:{type: "object"},message:"must be object"};
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
const err20 = {instancePath:instancePath+"/grandfathered",schemaPath:"#/properties/grandfathered/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.trust !== undefined){
if(!(policyValidate5(data.trust, {instancePath:instancePath+"/trust",parentData:data,parentDataProperty:"trust",rootData}))){
vErrors = vErrors === null ? policyValidate5.errors : vErrors.concat(policyValidate5.errors);
errors = vErrors.length;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
policyValidate0.errors = vErrors;
return errors === 0;
}

const policySchema = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call (or a record) may wait for the export (or the run) that matches it (docs/coverage.md, docs/policy.md §12): whole units d, h, m in that order (72h, 3d, 1d12h, 90m), at most 30d; 0 (the number or the string, the default): nothing is ever pending.","type":["string","integer"],"pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, and audit files whose trust is not asked, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}},"trust":{"$ref":"#/$defs/trust"}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"strings":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"trust":{"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}}}};
const mappingFile = (/* unused pure expression or super */ null && (mappingValidate0));
const mappingSchema0 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json","title":"receipt-gate mapping file (import-run --map)","description":"Which of a producer's tools write, to which action class and verb, and where each bound target field comes from (docs/producers.md). YAML 1.2, one document, read like the policy file; this schema is its shape (what the importer checks besides: known classes and verbs, exactly the class's bound fields, hashed fields with the class's domain, one source per field).","type":"object","additionalProperties":false,"required":["version","tools"],"properties":{"version":{"description":"The mapping file's version: 1.","const":1},"tools":{"description":"Tool rules, first match wins in file order: a call no rule matches asserts nothing (it is imported and counted, never dropped).","type":"array","items":{"$ref":"#/$defs/tool"}}},"$defs":{"path":{"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},"tool":{"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}},"source":{"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}}}};
const mappingSchema1 = {"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}};
const mappingSchema2 = {"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"};
const mappingFunc0 = ucs2length["default"] ?? ucs2length;
const mappingPattern0 = new RegExp("^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$", "u");
const mappingPattern1 = new RegExp("^--[A-Za-z0-9][A-Za-z0-9-]*$", "u");
const mappingSchema4 = {"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}};
const mappingPattern5 = new RegExp("^--?[A-Za-z0-9][A-Za-z0-9-]*$", "u");

function mappingValidate2(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((key0 === "arg") || (key0 === "result")) || (key0 === "value")) || (key0 === "hash")) || (key0 === "url-part")) || (key0 === "cli-option"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.arg !== undefined){
let data0 = data.arg;
if(typeof data0 === "string"){
if(!mappingPattern0.test(data0)){
const err1 = {instancePath:instancePath+"/arg",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/arg",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.result !== undefined){
let data1 = data.result;
if(typeof data1 === "string"){
if(!mappingPattern0.test(data1)){
const err3 = {instancePath:instancePath+"/result",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/result",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.value !== undefined){
let data2 = data.value;
if(((typeof data2 !== "string") && (!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2))))) && (data2 !== null)){
const err5 = {instancePath:instancePath+"/value",schemaPath:"#/properties/value/type",keyword:"type",params:{type: mappingSchema4.properties.value.type},message:"must be string,integer,null"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.hash !== undefined){
let data3 = data.hash;
if(typeof data3 === "string"){
if(mappingFunc0(data3) < 1){
const err6 = {instancePath:instancePath+"/hash",schemaPath:"#/properties/hash/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err7 = {instancePath:instancePath+"/hash",schemaPath:"#/properties/hash/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data["url-part"] !== undefined){
let data4 = data["url-part"];
if(!((((data4 === "owner") || (data4 === "repo")) || (data4 === "number")) || (data4 === "comment_id"))){
const err8 = {instancePath:instancePath+"/url-part",schemaPath:"#/properties/url-part/enum",keyword:"enum",params:{allowedValues: mappingSchema4.properties["url-part"].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data["cli-option"] !== undefined){
let data5 = data["cli-option"];
if(typeof data5 === "string"){
if(!mappingPattern5.test(data5)){
const err9 = {instancePath:instancePath+"/cli-option",schemaPath:"#/properties/cli-option/pattern",keyword:"pattern",params:{pattern: "^--?[A-Za-z0-9][A-Za-z0-9-]*$"},message:"must match pattern \""+"^--?[A-Za-z0-9][A-Za-z0-9-]*$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/cli-option",schemaPath:"#/properties/cli-option/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
mappingValidate2.errors = vErrors;
return errors === 0;
}


function mappingValidate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.tool === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.class === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.verb === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verb"},message:"must have required property '"+"verb"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.target === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "target"},message:"must have required property '"+"target"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "tool") || (key0 === "server")) || (key0 === "class")) || (key0 === "verb")) || (key0 === "provider")) || (key0 === "when")) || (key0 === "failed")) || (key0 === "target"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.tool !== undefined){
let data0 = data.tool;
if(typeof data0 === "string"){
if(mappingFunc0(data0) > 1024){
const err5 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(mappingFunc0(data0) < 1){
const err6 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err7 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.server !== undefined){
let data1 = data.server;
if(typeof data1 === "string"){
if(mappingFunc0(data1) < 1){
const err8 = {instancePath:instancePath+"/server",schemaPath:"#/properties/server/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err9 = {instancePath:instancePath+"/server",schemaPath:"#/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.class !== undefined){
let data2 = data.class;
if(typeof data2 === "string"){
if(mappingFunc0(data2) < 1){
const err10 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err11 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.verb !== undefined){
let data3 = data.verb;
if(typeof data3 === "string"){
if(mappingFunc0(data3) < 1){
const err12 = {instancePath:instancePath+"/verb",schemaPath:"#/properties/verb/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err13 = {instancePath:instancePath+"/verb",schemaPath:"#/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.provider !== undefined){
let data4 = data.provider;
if(typeof data4 === "string"){
if(mappingFunc0(data4) < 1){
const err14 = {instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
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
const err15 = {instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.when !== undefined){
let data5 = data.when;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.arg === undefined){
const err16 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/required",keyword:"required",params:{missingProperty: "arg"},message:"must have required property '"+"arg"+"'"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key1 in data5){
if(!((((key1 === "arg") || (key1 === "prefix")) || (key1 === "equals")) || (key1 === "unless"))){
const err17 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data5.arg !== undefined){
let data6 = data5.arg;
if(typeof data6 === "string"){
if(!mappingPattern0.test(data6)){
const err18 = {instancePath:instancePath+"/when/arg",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/when/arg",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data5.prefix !== undefined){
let data7 = data5.prefix;
if(typeof data7 === "string"){
if(mappingFunc0(data7) < 1){
const err20 = {instancePath:instancePath+"/when/prefix",schemaPath:"#/properties/when/properties/prefix/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/when/prefix",schemaPath:"#/properties/when/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data5.equals !== undefined){
if(typeof data5.equals !== "string"){
const err22 = {instancePath:instancePath+"/when/equals",schemaPath:"#/properties/when/properties/equals/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data5.unless !== undefined){
let data9 = data5.unless;
if(Array.isArray(data9)){
if(data9.length < 1){
const err23 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
const len0 = data9.length;
for(let i0=0; i0<len0; i0++){
let data10 = data9[i0];
if(typeof data10 === "string"){
if(!mappingPattern1.test(data10)){
const err24 = {instancePath:instancePath+"/when/unless/" + i0,schemaPath:"#/properties/when/properties/unless/items/pattern",keyword:"pattern",params:{pattern: "^--[A-Za-z0-9][A-Za-z0-9-]*$"},message:"must match pattern \""+"^--[A-Za-z0-9][A-Za-z0-9-]*$"+"\""};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/when/unless/" + i0,schemaPath:"#/properties/when/properties/unless/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
let i1 = data9.length;
let j0;
if(i1 > 1){
const indices0 = {};
for(;i1--;){
let item0 = data9[i1];
if(typeof item0 !== "string"){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err26 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
break;
}
indices0[item0] = i1;
}
}
}
else {
const err27 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/type",keyword:"type",params:{type: "array"},message:"must be array"};
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
const err28 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.failed !== undefined){
let data11 = data.failed;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
if(data11.result === undefined){
const err29 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/required",keyword:"required",params:{missingProperty: "result"},message:"must have required property '"+"result"+"'"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
for(const key2 in data11){
if(!(key2 === "result")){
const err30 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data11.result !== undefined){
let data12 = data11.result;
if(typeof data12 === "string"){
if(!mappingPattern0.test(data12)){
const err31 = {instancePath:instancePath+"/failed/result",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
else {
const err32 = {instancePath:instancePath+"/failed/result",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
else {
const err33 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data.target !== undefined){
let data13 = data.target;
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
if(Object.keys(data13).length < 1){
const err34 = {instancePath:instancePath+"/target",schemaPath:"#/properties/target/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
for(const key3 in data13){
if(!(mappingValidate2(data13[key3], {instancePath:instancePath+"/target/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data13,parentDataProperty:key3,rootData}))){
vErrors = vErrors === null ? mappingValidate2.errors : vErrors.concat(mappingValidate2.errors);
errors = vErrors.length;
}
}
}
else {
const err35 = {instancePath:instancePath+"/target",schemaPath:"#/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
}
else {
const err36 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
mappingValidate1.errors = vErrors;
return errors === 0;
}


function mappingValidate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json" */;
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
if(data.tools === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tools"},message:"must have required property '"+"tools"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "version") || (key0 === "tools"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.version !== undefined){
if(1 !== data.version){
const err3 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.tools !== undefined){
let data1 = data.tools;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(!(mappingValidate1(data1[i0], {instancePath:instancePath+"/tools/" + i0,parentData:data1,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? mappingValidate1.errors : vErrors.concat(mappingValidate1.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
mappingValidate0.errors = vErrors;
return errors === 0;
}

const mappingSchema = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json","title":"receipt-gate mapping file (import-run --map)","description":"Which of a producer's tools write, to which action class and verb, and where each bound target field comes from (docs/producers.md). YAML 1.2, one document, read like the policy file; this schema is its shape (what the importer checks besides: known classes and verbs, exactly the class's bound fields, hashed fields with the class's domain, one source per field).","type":"object","additionalProperties":false,"required":["version","tools"],"properties":{"version":{"description":"The mapping file's version: 1.","const":1},"tools":{"description":"Tool rules, first match wins in file order: a call no rule matches asserts nothing (it is imported and counted, never dropped).","type":"array","items":{"$ref":"#/$defs/tool"}}},"$defs":{"path":{"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},"tool":{"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}},"source":{"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}}}};

;// CONCATENATED MODULE: ./src/read/shapes.ts

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
const checkDecision = checker(decision);
const checkRecord = checker(record);

;// CONCATENATED MODULE: ./src/read/server-log.ts
/**
 * Runs as Assay's server writes them (docs/assay-server-logs.md, semantics §1): the stderr of
 * `assay-mcp-server`, one tracing JSON line per event. Each `tool_decision` event contributes the
 * decision in its `fields.decision` string, in line order, located at the line and the column of
 * that value. Other events, text lines and JSON that is not a tracing event are skipped and
 * counted; everything the doc lists as an error is one. A call started with no decision in its
 * session, a tools/call on JSON-RPC lines (stdout mixed in) past the calls its tracing events know,
 * or an event tracing could not format, is `run_incomplete`: a side effect may have happened that no
 * decision records.
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
const newSession = (opened = null) => ({
    started: new Map(),
    decided: new Set(),
    requests: new Set(),
    calls: new Map(),
    opened,
});
/** A JSON-RPC id as a key (null: none, or not a string or number: such a message pairs with nothing). */
function rpcKey(id) {
    return typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : null;
}
/** An answer to tools/call by its own shape: a result with a `content` list (MCP's CallToolResult). */
const callResult = (value) => (0,core_json/* isObject */.Gv)(value['result']) && Array.isArray(value['result']['content']);
/** A tracing line's timestamp as given, and as an instant or why it is none (the server's word of when its event happened). */
function stampOf(line) {
    const text = typeof line['timestamp'] === 'string' ? line['timestamp'] : '';
    return { text, time: (0,core_time/* parseRfc3339 */.TM)(text) };
}
/** Why a line's timestamp is no time, in words. */
const badStamp = (what, text, reason) => `${what}: the line's timestamp ${JSON.stringify((0,core_text/* quote */.hD)(text, 60))} ${reason}`;
/** One server log being read: server sessions (a server_start each), calls started and decided, decisions. */
class ServerLog {
    run;
    sink;
    limits;
    session = newSession();
    /** Whether a server_start line was seen (a capture of the server's stderr from its start has one). */
    started = false;
    /** Whether any tracing event other than server_start, or any JSON-RPC answer, was seen (a server that did start works). */
    worked = false;
    /** Whether a tools/call was seen on a JSON-RPC line (a call was made: the log is judged on it, never "never started"). */
    called = false;
    /** Whether a call's event came before any server_start (said once). */
    late = false;
    /** The server's own word that it failed to start (a startup_failure line), or the first plain-text line after server_start. */
    failure = null;
    firstText = null;
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
        // Whatever its event, a line that carries a decision is read as one or is an error: a server_start
        // or tool_call_start line holding a fields.decision is never skipped as what its event says.
        if (event !== 'tool_decision' && carriesDecision(line)) {
            const what = (0,core_json/* hasOwn */.$3)(fields, 'decision')
                ? `a fields.decision member with fields.event ${JSON.stringify(typeof event === 'string' ? (0,core_text/* quote */.hD)(event, 60) : (event ?? null))}`
                : `fields.event ${JSON.stringify((0,core_text/* quote */.hD)(String(event), 60))}`;
            this.sink.error(loc, `${what}: a decision that is not exactly a tool_decision event is never skipped`);
            return;
        }
        if (event === 'server_start') {
            this.started = true;
            // Its time bounds when the session's calls began (a decision with no tool_call_start before it began no earlier).
            const stamp = stampOf(line);
            if (!stamp.time.ok)
                this.sink.error(loc, badStamp('server_start', stamp.text, stamp.time.reason));
            this.endSession(stamp.time.ok ? stamp.time.value : null);
            this.sink.skip(loc, 'tracing event server_start');
            return;
        }
        this.worked = true;
        // A call's event (any event naming a rid) before any server_start: the capture began after the server
        // did (stderr redirected late, or the head of the file cut off), so calls before it may be missing
        // (docs/assay-server-logs.md). Start-up chatter without a rid (a warning) may come first.
        if (!this.started && !this.late && (rid !== null || event === 'tool_call_start' || event === 'tool_decision')) {
            this.late = true;
            const what = typeof event === 'string' ? `a ${(0,core_text/* quote */.hD)(event, 60)} event` : 'an event';
            this.sink.error(loc, `${what}${rid === null ? '' : ` of rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))}`} before any server_start line: this capture began after the server started (stderr redirected late, or the file's head cut off), so calls before it may be missing; capture the server's stderr from its start`);
        }
        if (event === 'tool_call_start') {
            if (rid === null)
                this.sink.error(loc, 'a tool_call_start event without a string fields.rid (its call cannot be paired with a decision)');
            else if (this.session.started.has(rid))
                // Two calls started under one rid (before or after its decision): one decision can answer only one of them.
                this.sink.incomplete(loc, `a second tool_call_start for ${JSON.stringify((0,core_text/* quote */.hD)(rid, 60))} in one server session: one decision answers only one of the two calls (a side effect may have gone unrecorded)`);
            else {
                // When the call's request began (§5: a read begun before a write was decided confirms nothing of it).
                const stamp = stampOf(line);
                if (!stamp.time.ok)
                    this.sink.error(loc, badStamp(`tool_call_start ${rid}`, stamp.text, stamp.time.reason));
                this.session.started.set(rid, { loc, begun: stamp.time.ok ? stamp.time.value : null });
            }
            this.sink.skip(loc, 'tracing event tool_call_start');
            return;
        }
        if (event !== 'tool_decision') {
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
        const stamp = stampOf(line);
        const time = stamp.time;
        if (!time.ok) {
            this.sink.error(at, badStamp(`tool_decision ${rid}`, stamp.text, time.reason));
            return;
        }
        // When its request began: its tool_call_start line; without one before it, its session's start (the earliest it can have).
        const call = rid === null ? undefined : this.session.started.get(rid);
        const begun = call ? call.begun : this.session.opened;
        const shape = checkDecision(result.value);
        // A subject number JSON.parse rounded could bind another target's record (at the decision's value: it is text inside the line).
        const unsafe = shape.ok ? unsafeSubjectNumber(result.value) : null;
        if (!shape.ok)
            this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${shape.reason}`);
        else if (unsafe !== null)
            this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${unsafe.reason}`);
        else
            this.run.decisions.push(prepareDecision(at, index, result.value, time.value, begun));
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
        const parsed = (0,strict/* parseStrict */.z3)(raw, { maxDepth: this.limits.maxDepth, maxKeys: this.limits.maxKeys });
        if (!parsed.ok)
            return {
                ok: false,
                reason: `tool_decision ${rid}: fields.decision is not strict JSON (at character ${parsed.reason.offset + 1} of it): ${parsed.reason.message}`,
            };
        const json = parsed.value.json;
        if (!(0,core_json/* isObject */.Gv)(json))
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
            if (this.started && this.firstText === null && line.trim() !== '' && line.charCodeAt(0) !== 0x1b)
                this.firstText = { loc, text: line };
            this.sink.skip(loc, line.charCodeAt(0) === 0x1b ? 'text line (ANSI banner)' : 'text line');
        }
    }
    /** A JSON object on a log line that is not a tracing event (stdout mixed in, a startup_failure line). */
    other(loc, name, value = null) {
        if (value !== null && typeof value['jsonrpc'] === 'string')
            this.rpc(value, loc);
        if (value !== null && value['event'] === 'startup_failure' && this.failure === null) {
            const code = typeof value['reason_code'] === 'string' ? (0,core_text/* quote */.hD)(value['reason_code'], 80) : null;
            const next = typeof value['next_step'] === 'string' ? (0,core_text/* quote */.hD)(value['next_step'], 300) : null;
            const text = `${code ? `reason_code ${code}` : 'no reason_code'}${next ? `; next step: ${next}` : ''}`;
            this.failure = { loc, text, line: true };
            return;
        }
        this.sink.skip(loc, name);
    }
    /**
     * A JSON-RPC message (stdout mixed in with 2>&1, or stdin's requests beside it): an answer shows the
     * server started and works (text after it is never "a server that never started": a red team's
     * false green); a tools/call request or answer is a call, which a tool_decision must record.
     */
    rpc(value, loc) {
        const key = rpcKey(value['id']);
        const shown = (0,core_text/* quote */.hD)(JSON.stringify(value['id'] ?? null) ?? 'null', 60);
        const request = typeof value['method'] === 'string';
        if (!request && ((0,core_json/* hasOwn */.$3)(value, 'result') || (0,core_json/* hasOwn */.$3)(value, 'error')))
            this.worked = true;
        let line = null;
        if (request && value['method'] === 'tools/call') {
            line = 'request';
            if (key !== null)
                this.session.requests.add(key);
        }
        else if (!request && (callResult(value) || (key !== null && this.session.requests.has(key))))
            line = 'answer';
        if (line === null)
            return;
        this.called = true;
        // A message without an id pairs with nothing: it is a call of its own.
        const id = key ?? `#${this.session.calls.size}`;
        if (!this.session.calls.has(id))
            this.session.calls.set(id, { loc, id: shown, line });
    }
    /**
     * Why the server never started (docs/assay-server-logs.md "A server that never started"): its
     * startup_failure line, or a plain-text line after a server_start that no other event follows (an
     * invalid --policy-root); null when it started and worked (any event but server_start, any
     * JSON-RPC answer), when a tools/call was made (the log is judged on its calls), or when this is no
     * capture of it at all.
     */
    notStarted() {
        if (this.worked || this.called)
            return null;
        if (this.failure)
            return this.failure;
        if (this.started && !this.worked && this.firstText)
            return { loc: this.firstText.loc, text: (0,core_text/* quote */.hD)(this.firstText.text.trim(), 300) };
        return null;
    }
    endSession(opened = null) {
        for (const [rid, { loc }] of this.session.started) {
            if (this.session.decided.has(rid))
                continue;
            this.sink.incomplete(loc, `rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))} started a tool call with no tool_decision in its session (the process was killed mid-call, or decisions were filtered out, e.g. ASSAY_LOG=warn): a side effect may have happened that no decision records`);
        }
        // The JSON-RPC lines' calls against the calls tracing knows of (started or decided): a JSON-RPC id is
        // no key to a decision's rid (its rpc_id is Rust's Debug text), so they are counted. The calls past
        // the count are those without a decision; a start without one is said above.
        const known = new Set([...this.session.started.keys(), ...this.session.decided]).size;
        const calls = [...this.session.calls.values()];
        for (const call of calls.slice(known)) {
            this.sink.incomplete(call.loc, `a tools/call ${call.line} on a JSON-RPC line (id ${call.id}) with no tool_decision in its server session: ${calls.length} tools/call on its JSON-RPC lines, ${known} call(s) in its tracing events (decisions filtered out, e.g. ASSAY_LOG=warn, or the process killed): a call happened that no decision records, so a side effect may have gone unrecorded`);
        }
        this.session = newSession(opened);
    }
    /** The end of the file: calls still without a decision are incomplete. */
    close() {
        this.endSession();
        // A server that started and worked is judged on its calls, whatever else the capture holds (a
        // failed restart appended to the same file): its startup_failure line is counted, never the
        // reason to drop the calls.
        if (this.worked && this.failure?.line)
            this.sink.skip(this.failure.loc, 'startup_failure line (the server also started and worked)');
    }
}

// EXTERNAL MODULE: ./src/read/base64.ts
var base64 = __nccwpck_require__(7753);
;// CONCATENATED MODULE: ./src/read/signature.ts
/**
 * Signed audit records (docs/records-provenance.md): the `signature` member's shape, byte for byte,
 * read as a pure reader (no keys here). The signed payload P is the UTF-8 of JCS(the record without
 * its `signature` member), so every other member is covered; the Ed25519 signature is over the DSSE
 * v1 pre-authentication encoding PAE(payload_type, P). Checking a signature is the trust edge's
 * (src/trust/); making one is the tools' (src/tools/signing.ts).
 */




const signature_PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
/** A coverage statement's (docs/coverage.md §5): signed with the same key and envelope, under its own type. */
const COVERAGE_PAYLOAD_TYPE = 'application/vnd.receipt-gate.audit-coverage+json;v=1';
const signature_MEMBERS = ['version', 'algorithm', 'payload_type', 'signed_payload_digest', 'key_id', 'signature', 'signed_at'];
/** Whether a `signed_at` value is an RFC 3339 UTC time (…T…Z, at most nanoseconds). */
const isSignedAt = (v) => /^[^tz]*T[^z]*Z$/.test(v) && !/\.\d{10,}/.test(v) && (0,core_time/* parseRfc3339 */.TM)(v, { utc: true }).ok;
/** The `signature` member's shape: the seven members with their types and values, nothing else; `type` the payload type of the entry it signs. */
function readSignatureMember(value, type = signature_PAYLOAD_TYPE) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return { ok: false, reason: 'signature is not an object' };
    for (const k of Object.keys(value))
        if (!signature_MEMBERS.includes(k))
            return { ok: false, reason: `signature has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
    for (const k of signature_MEMBERS)
        if (!(0,core_json/* hasOwn */.$3)(value, k))
            return { ok: false, reason: `signature.${k} is missing` };
    if (value['version'] !== 1)
        return { ok: false, reason: 'signature.version must be 1' };
    if (value['algorithm'] !== 'ed25519')
        return { ok: false, reason: 'signature.algorithm must be "ed25519"' };
    if (value['payload_type'] !== type)
        return { ok: false, reason: `signature.payload_type must be "${type}"` };
    for (const k of ['signed_payload_digest', 'key_id']) {
        const given = value[k];
        if (typeof given !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(given))
            return { ok: false, reason: `signature.${k} must be sha256:<64 lowercase hex>` };
    }
    const sig = value['signature'];
    if (typeof sig !== 'string' || sig.length !== 88 || (0,base64/* strictBase64 */.P)(sig)?.length !== 64) {
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
 * P: the canonical text of the record without its `signature` member (`subject`: its subject's JCS
 * text when already made, for its binding). Members are read as entries (never assigned or spread),
 * so a `__proto__` member stays an ordinary member.
 */
const payloadOf = (record, subject) => (0,binding/* jcsWithout */.X9)(record, 'signature', subject === undefined ? undefined : { key: 'subject', text: subject });
/** PAE(type, P) for a payload held as text (a record's P, as its reader made it): one string, encoded once. */
const paeText = (type, body) => Buffer.from(`DSSEv1 ${Buffer.byteLength(type, 'utf8')} ${type} ${Buffer.byteLength(body, 'utf8')} ${body}`, 'utf8');
/** DSSE v1: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. */
function signature_pae(type, body) {
    const bytes = Buffer.from(type, 'utf8');
    return Buffer.concat([Buffer.from(`DSSEv1 ${bytes.length} `, 'utf8'), bytes, Buffer.from(` ${body.length} `, 'utf8'), body]);
}

;// CONCATENATED MODULE: ./src/read/surface.ts
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
 * @param locate   the location of decision j of this surface (null: the surface's own location), or
 *                 of the member at `path` in it where the reader can tell (else the decision's)
 * @param run      the run's decisions so far: valid ones are appended; every decision, valid or
 *                 not, takes the next index
 * @param time     the event's time, for a surface an evidence event carries (its decisions' time); null otherwise
 * @returns false when the surface itself is unusable (then nothing was appended)
 */
function readSurface(payload, via, locate, run, fail, time = null) {
    // Inside a surface event, data.schema must be exactly the surface's (semantics §1): absent is not it either.
    if (via === 'event' && payload['schema'] !== model/* SURFACE_SCHEMA */.SB) {
        const found = JSON.stringify(typeof payload['schema'] === 'string' ? (0,core_text/* quote */.hD)(payload['schema'], 120) : payload['schema']);
        const version = typeof payload['schema'] === 'string' && payload['schema'].trim().toLowerCase().startsWith('assay.tool_decision_surface');
        fail(locate(null), payload['schema'] === undefined
            ? `event data has no schema: a surface event's data.schema must be ${model/* SURFACE_SCHEMA */.SB}`
            : version
                ? `event data has schema ${found}: unsupported version (this gate reads ${model/* SURFACE_SCHEMA */.SB})`
                : `event data has schema ${found}, expected ${model/* SURFACE_SCHEMA */.SB}`);
        return false;
    }
    const list = payload['observed_tool_decisions'];
    if (!Array.isArray(list)) {
        fail(locate(null), via === 'event' ? `${model/* SURFACE_SCHEMA */.SB} event data has no observed_tool_decisions array` : 'observed_tool_decisions is not an array');
        return false;
    }
    if (!run.admit(list.length, () => locate(Math.max(0, run.max - run.seen)), fail))
        return false;
    list.forEach((decision, j) => {
        const loc = locate(j);
        const index = run.seen++;
        const shape = checkDecision(decision);
        // A decision that breaks its shape rejects the run; the rest are still checked and reported.
        if (!shape.ok) {
            fail(loc, `decision ${index}: ${shape.reason}`);
            return;
        }
        // A subject number JSON.parse rounded could bind another target's record: the decision is refused at the number.
        const unsafe = unsafeSubjectNumber(decision);
        if (unsafe !== null)
            fail(locate(j, unsafe.path), `decision ${index}: ${unsafe.reason}`);
        else
            run.decisions.push(prepareDecision(loc, index, decision, time));
    });
    return true;
}

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
        this.listed((0,core_findings/* finding */.gk)('run_incomplete', loc, message));
    }
    get skippedAny() {
        return this.firstSkip !== null;
    }
    notice(code, message) {
        this.findings.push((0,core_findings/* finding */.gk)(code, { file: this.file, line: 1, column: 1 }, message));
    }
    /** A capture of a server that never started (its startup_failure line, or its error after server_start). */
    notStarted(loc, message) {
        this.findings.push((0,core_findings/* finding */.gk)('run_not_started', loc, message));
    }
    get failed() {
        return this.errors > 0;
    }
    report(loc, message) {
        this.errors++;
        this.listed((0,core_findings/* finding */.gk)('invalid_artifact', loc, message));
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
    /** Objects of the other role's kind (an audit record among the runs, a run among the exports): skipped, and counted. */
    strays = 0;
    stray(loc, name) {
        this.strays++;
        this.skip(loc, name);
    }
    close() {
        if (this.suppressed > 0) {
            this.findings.push((0,core_findings/* finding */.gk)(this.errors > 0 ? 'invalid_artifact' : 'run_incomplete', { file: this.file, line: 1, column: 1 }, `${this.suppressed} more problem(s) in this file not listed`));
        }
        if (this.firstSkip)
            this.findings.push(skippedFinding(this.firstSkip, this.skipped));
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
function signedParts(payload, what, type, loc, fr, options, subject) {
    const signed = (0,core_json/* hasOwn */.$3)(payload, 'signature');
    const signature = signed ? readSignatureMember(payload['signature'], type) : null;
    // A malformed signature is garbage, never ignored: the entry is invalid, keys or not.
    if (signature && !signature.ok) {
        fr.error(loc, `${what}: ${signature.reason}`);
        return null;
    }
    if (!signed && !options.payloads)
        return { signature: null, payload: undefined };
    const canonical = payloadOf(payload, subject);
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
    const parts = signedParts(kind.payload, 'coverage statement', COVERAGE_PAYLOAD_TYPE, loc, fr, options);
    if (!parts)
        return;
    const { signature, payload } = parts;
    out.push(signature
        ? { kind: 'statement', loc, statement: shape.value, signer: signature.key_id, signature, payload }
        : { kind: 'statement', loc, statement: shape.value, signer: null, payload });
}
function readRecord(kind, loc, fr, out, options) {
    const shape = checkRecord(kind.payload);
    if (!shape.ok) {
        fr.error(loc, `audit record: ${shape.reason}`);
        return;
    }
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
    // The binding is recomputed here, on the reading thread, from the subject as committed (the core
    // compares it); the subject's canonical text is made once, for the binding and the signed payload.
    const subject = (0,binding/* subjectCanonical */.fC)(record.subject);
    const recomputed = subject.ok ? { ok: true, digest: (0,binding/* sha256Digest */.sI)(subject.text) } : subject;
    const parts = signedParts(kind.payload, 'audit record', signature_PAYLOAD_TYPE, loc, fr, options, subject.ok ? subject.text : undefined);
    if (!parts)
        return;
    const { signature, payload } = parts;
    const input = signature
        ? { kind: 'record', loc, record, recomputed, signer: signature.key_id, signature, payload }
        : { kind: 'record', loc, record, recomputed, signer: null, payload };
    out.push(input);
}
/** The end of the line that starts at `start` (its "\n", or the end of the text). */
const lineEnd = (text, start) => {
    const n = text.indexOf('\n', start);
    return n < 0 ? text.length : n;
};
/**
 * The run every event of a run file names (`assayrunid`, as evidence-bundle.md writes it): one. Two
 * runs concatenated into one file would be read as one run, and a read of one would confirm a write
 * of the other (§5: the same run). The first event naming another run is an error (once per file).
 */
class RunIds {
    first = null;
    said = false;
    event(value, loc, fr) {
        if (this.said || !(0,core_json/* isObject */.Gv)(value) || !(0,core_json/* hasOwn */.$3)(value, 'assayrunid'))
            return;
        const id = value['assayrunid'];
        if (typeof id !== 'string') {
            this.said = true;
            fr.error(loc, `the event's assayrunid is ${id === null ? 'null' : typeof id}, not a string: a run file's events name their run by one string`);
        }
        else if (this.first === null)
            this.first = { id, loc };
        else if (id !== this.first.id) {
            this.said = true;
            fr.error(loc, `this event names run ${JSON.stringify((0,core_text/* quote */.hD)(id, 80))} (assayrunid), the file's first event (line ${this.first.loc.line}) run ${JSON.stringify((0,core_text/* quote */.hD)(this.first.id, 80))}: a run file holds one run (of two runs in one file, a read of one would confirm a write of the other); write each run to a file of its own`);
        }
    }
}
/**
 * A run artifact: a .json surface; .ndjson/.jsonl of surfaces, surface events or server tracing
 * lines; or a server log (.log). One run per file, decisions in line order.
 */
function readRunFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR) {
    const fr = new FileReport(file, limits);
    const run = new RunDecisions(limits.maxDecisions);
    const log = new ServerLog(run, fr, limits);
    let surfaces = 0;
    let tracing = 0;
    let notStarted = null;
    const text = fileText(bytes, fr, limits);
    const runIds = new RunIds();
    const surface = (doc, k) => {
        surfaces++;
        const offsets = doc.elements.get(SURFACE_KEY[k.via]) ?? [];
        // An evidence event's decisions were made at its `time` (docs/coverage.md §2): present, it must be RFC 3339.
        let time = null;
        const given = k.via === 'event' && (0,core_json/* isObject */.Gv)(doc.value) && (0,core_json/* hasOwn */.$3)(doc.value, 'time') ? doc.value['time'] : undefined;
        if (given !== undefined) {
            const parsed = typeof given === 'string' ? (0,core_time/* parseRfc3339 */.TM)(given) : null;
            if (!parsed?.ok) {
                const why = parsed ? parsed.reason : 'is not a string';
                fr.error(fr.at(doc.start), `the evidence event's time ${JSON.stringify(typeof given === 'string' ? (0,core_text/* quote */.hD)(given, 60) : given)} ${why}`);
                return;
            }
            time = parsed.value;
        }
        // A decision's member (a subject's number) is found in the text only when a problem is to be located there.
        const locate = (j, path) => {
            const at = j === null ? doc.start : (offsets[j] ?? doc.start);
            return fr.at(path === undefined || text === null ? at : ((0,scanner/* offsetAt */.HA)(text, at, path, { maxDepth: limits.maxDepth }) ?? at));
        };
        readSurface(k.payload, k.via, locate, run, (at, message) => fr.error(at, message), time);
    };
    const json = (doc, inLog) => {
        const loc = fr.at(doc.start);
        runIds.event(doc.value, loc, fr);
        const kind = classify(doc.value);
        if (kind.kind === 'tracing') {
            // A .json run file must be a surface: one tracing line there is not a run (semantics §1).
            if (format === 'json')
                fr.error(loc, 'a server tracing line in a .json file: a .json run file must be a decision surface (a captured log is a .log)');
            else {
                tracing++;
                log.event(kind.line, loc, text, doc.start, lineEnd(text, doc.start));
            }
        }
        else if ((0,core_json/* isObject */.Gv)(doc.value) && carriesDecision(doc.value)) {
            // A decision is never skipped: a line that carries one but is not a tracing line is an error.
            fr.error(loc, kind.kind === 'error' && kind.named
                ? kind.reason
                : 'a line that carries a tool decision (a decision member, or an event tool_decision, in fields or at the top) but is not a tracing line');
        }
        else if (kind.kind === 'error' && inLog && !kind.named) {
            // In a server log, JSON that names no kind (stdout's JSON-RPC, a startup_failure line) is skipped.
            log.other(loc, (0,core_json/* isObject */.Gv)(doc.value) && typeof doc.value['jsonrpc'] === 'string'
                ? 'JSON-RPC message (stdout mixed in)'
                : 'JSON that is not a tracing event', (0,core_json/* isObject */.Gv)(doc.value) ? doc.value : null);
        }
        else if (kind.kind === 'error')
            fr.error(loc, kind.reason);
        else if (kind.kind === 'other')
            fr.skip(loc, kind.name);
        else if (kind.kind === 'record')
            fr.stray(loc, 'assay.provider_audit_record.v0 (an audit record among the runs)');
        else if (kind.kind === 'coverage')
            fr.stray(loc, `${model/* COVERAGE_SCHEMA */.Bh} (a coverage statement among the runs)`);
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
        // The server's own output when it never started: no calls, one notice saying why (never "another program's log").
        // Never when the capture holds decisions (surfaces between its lines): they are judged (a red team).
        notStarted = format === 'log' && !fr.failed && surfaces === 0 && run.decisions.length === 0 ? log.notStarted() : null;
        if (notStarted)
            fr.notStarted(notStarted.loc, `the agent's server never started (${notStarted.text}): this run contributes no calls`);
        // A .log is assay-mcp-server's stderr, captured from its start: without a server_start line it
        // is another program's log, or a capture that began late (decisions before it are lost).
        else if (format === 'log' && !log.started && !fr.failed)
            fr.error(fr.at(0), "no server_start line: this is not a capture of assay-mcp-server's stderr from its start (the server writes server_start when it starts; was stderr redirected late, or is this another program's log?)");
    }
    const firstError = fr.findings.findIndex((f) => f.code === 'invalid_artifact');
    const first = fr.findings[firstError];
    if (fr.failed && first) {
        fr.findings[firstError] = { ...first, message: `${first.message} (the run is rejected and contributes no calls)` };
    }
    const isRun = (surfaces > 0 || tracing > 0) && notStarted === null;
    // Nothing is dropped silently: a readable file with nothing to verify says so.
    if (!fr.failed && !isRun && !fr.skippedAny && notStarted === null)
        fr.notice('no_decisions', 'no decision surface in this file: it contributes no calls');
    if (!fr.failed && tracing > 0 && run.decisions.length === 0 && surfaces === 0 && notStarted === null) {
        fr.notice('no_decisions', 'the server log holds no tool_decision event: it contributes no calls');
    }
    const findings = fr.close();
    // A rejected run contributes no calls; its classes are kept to say where a rule's class went.
    const rejectedClasses = fr.failed ? [...new Set(run.decisions.flatMap((d) => (d.actionClass === null ? [] : [d.actionClass])))] : [];
    return {
        run: !fr.failed && isRun ? { artifact: file, decisions: run.decisions } : null,
        entries: [],
        findings,
        strays: fr.strays,
        ...(rejectedClasses.length > 0 ? { rejectedClasses } : {}),
    };
}
/**
 * A .json audit file that is pages written one after another (`gh api --paginate` without --slurp:
 * `[…][…]`), read as the import reads such pages (the pipeline's `values` mode, only as far as the
 * second page): where the second page starts, and the kind of provider export its first entry looks
 * like; null when the file is one value (or not JSON: the strict reader has said why).
 */
function pagedExport(text, limits) {
    const pages = (0,documents/* documents */.DB)(text, 'values', { limits, collect: [] }, new documents/* LocatingSink */.Bz(''));
    const first = pages.next();
    const second = pages.next();
    if (first.done || second.done || !Array.isArray(first.value.value))
        return null;
    return { offset: second.value.start, kind: exportKindOf(first.value.value[0]) };
}
/** What to say of a raw provider export among the audit files (one finding per file, docs/coverage.md §6). */
function rawExportText(kind, paged) {
    const what = kind ? EXPORT_KINDS[kind] : 'a provider export';
    const how = `receipt-gate import ${kind ?? Object.keys(EXPORT_KINDS).join('|')}`;
    return `this is ${what}${paged ? ' written page after page ([…][…], gh api --paginate)' : ''}, not audit records: turn the export into records with ${how} (docs/importers.md)`;
}
/** An audit export (.json record or array of records, or .ndjson/.jsonl of records). */
function readAuditFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR, options = {}) {
    const fr = new FileReport(file, limits);
    const entries = [];
    let raw = null;
    for (const doc of auditDocuments(bytes, format, fr, limits)) {
        const offsets = doc.elements.get(ROOT_KEY) ?? [];
        const items = Array.isArray(doc.value) && format === 'json'
            ? doc.value.map((v, j) => [v, offsets[j] ?? doc.start])
            : [[doc.value, doc.start]];
        for (const [value, offset] of items) {
            const loc = fr.at(offset);
            const kind = classify(value);
            // A raw provider export is one finding for the file, never one per entry (docs/coverage.md §6).
            const rawKind = kind.kind === 'error' && !kind.named ? exportKindOf(value) : null;
            if (raw !== null && rawKind === raw)
                continue;
            raw = rawKind;
            if (raw)
                fr.error(loc, rawExportText(raw, false));
            else if (kind.kind === 'error')
                fr.error(loc, kind.reason);
            else if (kind.kind === 'other')
                fr.skip(loc, kind.name);
            else if (kind.kind === 'tracing')
                fr.stray(loc, 'a server tracing line (a run among the audit exports)');
            else if (kind.kind === 'surface')
                fr.stray(loc, 'assay.tool_decision_surface.v0 (a run among the audit exports)');
            else if (kind.kind === 'coverage')
                readStatement(kind, loc, fr, entries, options);
            else
                readRecord(kind, loc, fr, entries, options);
        }
    }
    if (!fr.failed && entries.length === 0 && !fr.skippedAny)
        fr.notice('no_records', 'no audit record in this file');
    // A .json file the strict reader refused may be pages of a provider export written one after
    // another: then that is the one thing to say (asked only after a failure: no cost on a good file).
    const paged = fr.failed && format === 'json' && fr.lines !== null ? pagedExport(Buffer.from(bytes).toString('utf8'), limits) : null;
    if (paged !== null) {
        const once = new FileReport(file, limits);
        once.lines = fr.lines;
        once.error(once.at(paged.offset), rawExportText(paged.kind, true));
        return { run: null, entries: [], findings: once.close(), strays: once.strays };
    }
    return { run: null, entries, findings: fr.close(), strays: fr.strays };
}

// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __nccwpck_require__(7075);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __nccwpck_require__(8522);
;// CONCATENATED MODULE: ./src/read/read-error.ts
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

// EXTERNAL MODULE: ./src/read/lines.ts
var lines = __nccwpck_require__(771);
// EXTERNAL MODULE: ./src/read/utf8.ts
var utf8 = __nccwpck_require__(8145);
;// CONCATENATED MODULE: ./src/read/bundle/events.ts
/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */













const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'];
const fail = (message) => {
    throw new ReadError('events', message);
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
    const run = new RunDecisions(limits.maxDecisions);
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
        const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end);
        if (!parsed.ok)
            return fail(`${where} is not strict JSON: ${parsed.reason.message}`);
        const thrown = parsed.value.json;
        if (!(0,core_json/* isObject */.Gv)(thrown))
            return fail(`${where} is not a JSON object`);
        const { time, contentHash } = checkEnvelope(thrown, where, manifest, seq, source);
        source = thrown['source'];
        if (!earliest || (0,core_time/* compareInstants */.QI)(time, earliest) < 0)
            earliest = time;
        if (!latest || (0,core_time/* compareInstants */.QI)(latest, time) < 0)
            latest = time;
        root.update(`${contentHash}\n`);
        // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
        const kind = classify(thrown);
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
            readSurface(kind.payload, 'event', locate, run, (_at, message) => fail(`${where}: ${message}`), time);
        }
        else if (kind.kind === 'record' || kind.kind === 'coverage') {
            // A bundle is a run: no audit input reads it, so a record or statement in it would be judged by no
            // one (a red team: an attested bundle carried a failing record past the gate with a notice).
            fail(`${where}: ${kind.kind === 'record' ? `an audit record (${model/* RECORD_SCHEMA */.ep})` : `a coverage statement (${model/* COVERAGE_SCHEMA */.Bh})`} in a bundle, where no audit input reads it: a bundle holds a run; commit the provider's records and statements as an audit export (receipt-gate import)`);
        }
        else {
            const name = kind.kind === 'other' ? kind.name : 'a server tracing line';
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
function announcedKind(schema) {
    const kind = classify({ schema });
    if (kind.kind === 'other')
        return kind.name;
    throw new ReadError('manifest', kind.kind === 'error'
        ? `the archive's manifest names ${JSON.stringify((0,core_text/* quote */.hD)(schema, 120))}: ${kind.reason}`
        : `the archive's manifest names ${schema}, which is not an archive`);
}
/** A first member that is JSON with a `schema` names the archive's kind (null: it names none, so it is not a bundle). */
function otherArchive(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        return null;
    const parsed = (0,strict/* parseStrict */.z3)(decoded.value, { maxDepth: limits.maxDepth });
    const value = parsed.ok ? parsed.value.json : null;
    return (0,core_json/* isObject */.Gv)(value) && typeof value['schema'] === 'string' ? announcedKind(value['schema']) : null;
}
/** The manifest, or the name of the other kind of archive it announces. */
function readManifest(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        throw new ReadError('manifest', `manifest.json is not valid UTF-8 (byte ${decoded.reason})`);
    const parsed = (0,strict/* parseStrict */.z3)(decoded.value, { maxDepth: limits.maxDepth });
    if (!parsed.ok)
        throw new ReadError('manifest', `manifest.json is not strict JSON: ${parsed.reason.message} (offset ${parsed.reason.offset})`);
    const m = parsed.value.json;
    if (!(0,core_json/* isObject */.Gv)(m))
        throw new ReadError('manifest', 'manifest.json is not a JSON object');
    if (typeof m['schema'] === 'string' && !('schema_version' in m))
        return { other: announcedKind(m['schema']) };
    if (m['schema_version'] !== 1)
        throw new ReadError('manifest', `manifest schema_version must be 1, found ${JSON.stringify(m['schema_version'])}`);
    const runId = m['run_id'];
    const eventCount = m['event_count'];
    const runRoot = m['run_root'];
    const bundleId = m['bundle_id'];
    if (typeof runId !== 'string')
        throw new ReadError('manifest', 'manifest run_id is not a string');
    if (runId.includes(':'))
        throw new ReadError('manifest', 'manifest run_id contains ":" (event ids are run_id:seq)');
    if (typeof eventCount !== 'number' || !Number.isSafeInteger(eventCount) || eventCount < 0)
        throw new ReadError('manifest', 'manifest event_count is not a non-negative integer');
    if (typeof runRoot !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(runRoot))
        throw new ReadError('manifest', 'manifest run_root is not a sha256:<hex> digest');
    if (typeof bundleId !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(bundleId))
        throw new ReadError('manifest', 'manifest bundle_id is not a sha256:<hex> digest');
    const files = m['files'];
    const ev = (0,core_json/* isObject */.Gv)(files) ? files['events.ndjson'] : undefined;
    if (!(0,core_json/* isObject */.Gv)(ev))
        throw new ReadError('manifest', 'manifest files["events.ndjson"] is missing or not an object');
    const sha = ev['sha256'];
    const size = ev['bytes'];
    if (typeof ev['path'] !== 'string')
        throw new ReadError('manifest', 'manifest files["events.ndjson"].path is not a string');
    if (typeof sha !== 'string')
        throw new ReadError('manifest', 'manifest files["events.ndjson"].sha256 is not a string');
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
        throw new ReadError('manifest', 'manifest files["events.ndjson"].bytes is not a non-negative integer');
    const eventsSha256 = (sha.startsWith('sha256:') ? sha : `sha256:${sha}`).toLowerCase();
    const parsed2 = (0,core_json/* isObject */.Gv)(m['producer']) ? m['producer'] : {};
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
/** Node 22.2+ has a native CRC-32; older runtimes take the table below. */
const zlibCrc32 = external_node_zlib_.crc32;
/** A pull source over the gunzip stream that enforces the decompression limits. */
class GunzipSource {
    compressed;
    limits;
    chunks = [];
    buffered = 0;
    /** Decompressed bytes so far. */
    total = 0;
    done = false;
    /** Whether the whole gzip stream has been read (its every member). */
    get ended() {
        return this.done;
    }
    it;
    /** CRC-32 of every decompressed byte so far (what a one-member archive's trailer says). */
    crc = 0;
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
            throw new ReadError('limit', `decompressed size exceeds the ${this.limits.maxDecompressedBytes}-byte limit (decompression bomb?)`);
        }
        if (this.total > MiB && this.total > this.compressed * this.limits.maxRatio) {
            throw new ReadError('limit', `decompression ratio exceeds ${this.limits.maxRatio}:1 (${this.compressed} compressed bytes expanded past ${this.total}; decompression bomb?)`);
        }
        this.crc = crc32(r.value, this.crc);
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
/**
 * The compressed archive's end, for the one-member rule: the last bytes before its trailing zeros,
 * and how many zeros follow. Fed every chunk of the compressed input as it streams.
 */
class ArchiveTail {
    tail = Buffer.alloc(0);
    zeros = 0;
    push(chunk) {
        let last = chunk.length - 1;
        while (last >= 0 && chunk[last] === 0)
            last--;
        if (last < 0) {
            this.zeros += chunk.length;
            return;
        }
        // Only the last 16 bytes are kept: no chunk is copied whole (this runs on every compressed chunk).
        const start = Math.max(0, last + 1 - 16);
        const gap = start > 0 ? 0 : Math.min(this.zeros, 16);
        this.tail = Buffer.concat([start > 0 ? Buffer.alloc(0) : this.tail, Buffer.alloc(gap), chunk.subarray(start, last + 1)]).subarray(-16);
        this.zeros = chunk.length - last - 1;
    }
    /**
     * Whether the gzip trailer at the end (CRC-32 and size of the member) is that of all the data: one
     * member, then only NUL padding. A second member would carry its own data's CRC and size. The
     * trailer's last bytes may be zeros themselves (all eight for an empty member), so every split of
     * the trailing zeros is tried. Blind spot: a first member with no data (its CRC-32 and size are
     * zero) followed by a second has the second's trailer, which is then that of all the data; the
     * tar inside must still be a whole bundle, so such an archive is one a first-member reader refuses.
     */
    oneMember(crc, size) {
        for (let j = 0; j <= Math.min(8, this.zeros); j++) {
            const t = Buffer.concat([this.tail, Buffer.alloc(j)]).subarray(-8);
            if (t.length === 8 && t.readUInt32LE(0) === crc >>> 0 && t.readUInt32LE(4) === size % 2 ** 32)
                return true;
        }
        return false;
    }
}
const CRC_TABLE = (() => {
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
    }
    return table;
})();
/** CRC-32 (zlib's; native where Node has it). */
function crc32(data, value) {
    if (typeof zlibCrc32 === 'function')
        return zlibCrc32(data, value);
    let c = ~value >>> 0;
    for (let i = 0; i < data.length; i++)
        c = (CRC_TABLE[(c ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
    return ~c >>> 0;
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
            throw new ReadError('tar', `tar header ${what} field is out of range`);
        return v;
    }
    const text = bytes
        .toString('latin1', start, start + len)
        .replace(/[\0 ]+$/, '')
        .replace(/^ +/, '');
    if (text === '')
        return 0;
    if (!/^[0-7]+$/.test(text))
        throw new ReadError('tar', `tar header ${what} field is not octal`);
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
            throw new ReadError('tar', 'malformed PAX header record');
        const len = Number(data.toString('latin1', i, sp));
        if (!Number.isSafeInteger(len) || len <= 0 || i + len > data.length)
            throw new ReadError('tar', 'malformed PAX header record length');
        const rec = data.toString('utf8', sp + 1, i + len - 1);
        const eq = rec.indexOf('=');
        if (eq === -1)
            throw new ReadError('tar', 'malformed PAX header record');
        const key = rec.slice(0, eq);
        if (key === 'path') {
            // Two path records: tar readers disagree which one names the member (the first, the last).
            if (path !== undefined)
                throw new ReadError('tar', 'a PAX header with two path records: the member has two names');
            path = rec.slice(eq + 1);
        }
        if (key === 'linkpath')
            throw new ReadError('tar', 'PAX linkpath record: links are not allowed in a bundle');
        if (key === 'size')
            throw new ReadError('tar', 'PAX size record is not supported in a bundle');
        i += len;
    }
    return path;
}
/** How many NUL bytes end a buffer. */
function trailingNuls(b) {
    let n = 0;
    while (n < b.length && b[b.length - 1 - n] === 0)
        n++;
    return n;
}
async function* members(src, limits) {
    let longName;
    /** An extended header was read and applies to the next member. */
    let extended = false;
    let consumed = true;
    for (;;) {
        if (!consumed)
            throw new ReadError('tar', 'internal: member data not consumed');
        const bytes = await src.read(BLOCK);
        if (bytes.length === 0) {
            if (longName !== undefined)
                throw new ReadError('tar', 'tar archive ends after an extended header (truncated)');
            return; // EOF at a header boundary: tolerated like the end marker
        }
        if (bytes.length < BLOCK)
            throw new ReadError('tar', 'tar archive is truncated inside a header');
        if (isZero(bytes)) {
            if (longName !== undefined)
                throw new ReadError('tar', 'tar archive ends after an extended header');
            return;
        }
        if (!checksumOk(bytes))
            throw new ReadError('tar', 'tar header checksum does not match (corrupt or not a tar archive)');
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
                throw new ReadError('tar', `${type === 'x' ? 'PAX' : 'GNU long-name'} header of ${size} bytes is past the ${limits.maxMetaBytes}-byte decode ceiling`);
            }
            const data = await src.read(size + padding(size));
            if (data.length < size + padding(size))
                throw new ReadError('tar', 'tar archive is truncated inside an extended header');
            const body = data.subarray(0, size);
            // Two extended headers before one member (a GNU long name and a PAX path, two of one kind, or a
            // second without a path): tar readers disagree which applies (GNU tar drops the first), so
            // another reader (upstream's) could read another member than this one.
            if (extended)
                throw new ReadError('tar', 'two extended headers before one member (GNU long name or PAX): its name is ambiguous');
            extended = true;
            // A GNU long name with a NUL inside is one name to a C reader and another to one that reads it whole.
            const text = type === 'L' ? body.subarray(0, body.length - trailingNuls(body)) : body;
            if (type === 'L' && text.includes(0))
                throw new ReadError('tar', 'a GNU long name with a NUL inside: its name is ambiguous');
            longName = type === 'x' ? paxPath(body) : cstring(text, 0, text.length);
            continue;
        }
        if (type === 'g')
            throw new ReadError('tar', 'global PAX header member is not allowed in a bundle');
        if (type === '1' || type === '2' || type === 'K')
            throw new ReadError('tar', `link member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '3' || type === '4' || type === '6')
            throw new ReadError('tar', `device or FIFO member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '5')
            throw new ReadError('tar', `directory member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type !== '0' && type !== '\0' && type !== '7')
            throw new ReadError('tar', `tar member "${(0,core_text/* quote */.hD)(name)}" has unsupported type '${type}'`);
        const path = longName ?? name;
        longName = undefined;
        extended = false;
        if (Buffer.byteLength(path) > limits.maxPathBytes)
            throw new ReadError('tar', `tar member path is longer than ${limits.maxPathBytes} bytes`);
        if (path.startsWith('/'))
            throw new ReadError('tar', `tar member path "${path}" is absolute`);
        if (path.split('/').includes('..'))
            throw new ReadError('tar', `tar member path "${path}" contains ".."`);
        consumed = false;
        yield {
            path,
            size,
            data: async (maxBytes, what) => {
                if (size > maxBytes)
                    throw new ReadError('limit', `${what} is ${size} bytes, over the ${maxBytes}-byte limit`);
                const buf = await src.read(size + padding(size));
                if (buf.length < size + padding(size))
                    throw new ReadError('tar', `tar archive is truncated inside ${what}`);
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
        return { ok: true, value: await archive_walk(source, file, limits) };
    }
    catch (error) {
        if (error instanceof ReadError)
            return { ok: false, reason: error };
        throw error;
    }
}
/** The archive's bytes as a stream, and its size (over the compressed limit: refused before reading). */
function archive_open(source, limits) {
    try {
        const size = 'path' in source ? (0,external_node_fs_.statSync)(source.path).size : source.bytes.length;
        if (size > limits.maxCompressedBytes)
            throw new ReadError('limit', `bundle is ${size} bytes, over the ${limits.maxCompressedBytes}-byte compressed limit (max-file-size, at most ${read_limits/* DEFAULT_BUNDLE_LIMITS */.k$.maxCompressedBytes})`);
        return { size, input: 'path' in source ? (0,external_node_fs_.createReadStream)(source.path) : external_node_stream_.Readable.from([Buffer.from(source.bytes)]) };
    }
    catch (error) {
        if (error instanceof ReadError)
            throw error;
        throw new ReadError('io', `cannot read file: ${ioReason(error)}`);
    }
}
const unexpected = (path) => `unexpected member "${path}" (a bundle holds manifest.json then events.ndjson)`;
/** How deep archives inside an archive of another kind are opened to check their members. */
const MAX_NESTED = 3;
/** Gzip's magic bytes. */
const gzipped = (bytes) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
/**
 * What a member of an archive of another kind holds that the gate would read, in words, or null:
 * every member is read, never skipped by its name. A `.log` is a server log (a run, which an archive
 * of another kind cannot be read as); a nested `.tar.gz`/`.tgz` (or any gzip bytes) is opened and its
 * members checked the same way (`nested`); any other member, by what it holds (`evidenceIn`).
 */
async function heldBy(m, path, limits, depth, used) {
    const bytes = await m.data(limits.maxEventsBytes, m.path);
    if (/\.log$/i.test(m.path))
        return { path, what: 'is a server log (a .log is a run: the stderr of assay-mcp-server, read only as a file of its own)' };
    if (/\.(tar\.gz|tgz)$/i.test(m.path) || gzipped(bytes))
        return nested(bytes, path, limits, depth + 1, used);
    const held = evidenceIn(bytes, bytes.length, false);
    if (held.kind === 'nothing')
        return null;
    const what = held.kind === 'evidence'
        ? `holds ${held.why}`
        : `holds evidence the gate reads (decision surfaces, records, statements or tracing lines${held.kind === 'lines' ? `, from its line ${held.lines[0]?.line ?? 1}` : ''})`;
    return { path, what };
}
/**
 * An archive inside an archive of another kind: each of its members checked as `heldBy` checks them,
 * within what is left of the decompression limit (`used`: what the archives around it inflated). One
 * that cannot be opened (not a tar this reader reads, too deep, past a limit) is held against it by
 * name: its members cannot be checked, so it is never skipped.
 */
async function nested(bytes, path, limits, depth, used) {
    if (depth > MAX_NESTED)
        return { path, what: `is an archive nested more than ${MAX_NESTED} deep, whose members are not opened` };
    const left = { ...limits, maxDecompressedBytes: Math.max(0, limits.maxDecompressedBytes - used) };
    const input = external_node_stream_.Readable.from([bytes]);
    const gunzip = (0,external_node_zlib_.createGunzip)({ chunkSize: GUNZIP_CHUNK });
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
        const src = new GunzipSource(gunzip, bytes.length, left);
        for await (const m of members(src, left)) {
            const held = await heldBy(m, `${path}!${m.path}`, left, depth, used + src.total);
            if (held)
                return held;
        }
        if (!(await src.drain()))
            return { path, what: 'is an archive with data after the end of its tar archive, which cannot be checked' };
        return null;
    }
    catch (error) {
        const err = error;
        const why = error instanceof ReadError ? error.message : typeof err.code === 'string' && err.code.startsWith('Z_') ? gzipReason(err) : null;
        if (why === null)
            throw error;
        return { path, what: `is an archive this reader cannot open to check its members (${why})` };
    }
    finally {
        input.destroy();
        gunzip.destroy();
    }
}
/** The members in order: manifest.json, then events.ndjson, nothing else; or another kind of archive. */
async function contents(src, file, limits) {
    let manifest;
    let events;
    let other = null;
    for await (const m of members(src, limits)) {
        if (other !== null) {
            // Another kind of archive is skipped, unless a member holds evidence the gate reads (a red team: a
            // failing run's events under a runner archive's manifest were skipped with a notice), is a server
            // log, or is an archive that does or cannot be opened (a red team: `.log` and nested `.tgz`
            // members were skipped by their names). Every member is read.
            const held = await heldBy(m, m.path, limits, 0, src.total);
            if (held)
                throw new ReadError('bundle', `an archive of another kind (${other}) whose member ${JSON.stringify((0,core_text/* quote */.hD)(held.path, 200))} ${held.what}: evidence in an archive is read from an evidence bundle only, and never skipped; extract the member and commit it under the runs (a server log as .log, events as .ndjson, a bundle as its own .tar.gz)`);
        }
        else if (!manifest) {
            if (m.path !== 'manifest.json' && m.path.endsWith('.json')) {
                // Another kind of Assay archive (a runner archive…) announces itself in its first JSON member.
                other = otherArchive(await m.data(limits.maxManifestBytes, m.path), limits);
                if (other !== null)
                    continue;
            }
            if (m.path !== 'manifest.json')
                throw new ReadError('bundle', m.path === 'events.ndjson' ? 'member order: events.ndjson comes before manifest.json' : unexpected(m.path));
            const read = readManifest(await m.data(limits.maxManifestBytes, 'manifest.json'), limits);
            if ('other' in read)
                other = read.other;
            else
                manifest = read;
        }
        else if (!events) {
            if (m.path !== 'events.ndjson')
                throw new ReadError('bundle', m.path === 'manifest.json' ? 'duplicate member "manifest.json"' : unexpected(m.path));
            if (m.size !== manifest.eventsBytes)
                throw new ReadError('bundle', `events.ndjson is ${m.size} bytes but the manifest says ${manifest.eventsBytes}`);
            const bytes = await m.data(limits.maxEventsBytes, 'events.ndjson');
            if ((0,binding/* sha256Digest */.sI)(bytes) !== manifest.eventsSha256)
                throw new ReadError('bundle', 'events.ndjson sha256 does not match the manifest');
            events = readEvents(bytes, manifest, file, limits);
        }
        else {
            throw new ReadError('bundle', m.path === 'events.ndjson' || m.path === 'manifest.json' ? `duplicate member "${m.path}"` : unexpected(m.path));
        }
    }
    if (other !== null)
        return { other };
    if (!(await src.drain()))
        throw new ReadError('bundle', 'data after the end of the tar archive');
    if (!manifest)
        throw new ReadError('bundle', 'missing member manifest.json');
    if (!events)
        throw new ReadError('bundle', 'missing member events.ndjson');
    return { manifest, events };
}
/**
 * Bytes gunzip hands over at a time. Each chunk is a turn of the event loop while zlib inflates on
 * the thread pool: 16 KiB (the default) is ~5 000 turns for a 100 000-event bundle, 256 KiB ~300
 * (2.28 → 2.06 s for it; 1 MiB was no faster). The limits are checked per chunk, so a bomb is
 * stopped at most one chunk past them.
 */
const GUNZIP_CHUNK = 256 * 1024;
const MORE_THAN_ONE_MEMBER = 'the archive is more than one gzip member (or has bytes after its trailer): an evidence bundle is exactly one';
/** The three jobs in order (source → manifest → events); throws ReadError naming the broken rule. */
async function archive_walk(source, file, limits) {
    const { size, input } = archive_open(source, limits);
    const gunzip = (0,external_node_zlib_.createGunzip)({ chunkSize: GUNZIP_CHUNK });
    const archiveHash = (0,external_node_crypto_.createHash)('sha256');
    const tail = new ArchiveTail();
    input.on('data', (chunk) => {
        archiveHash.update(chunk);
        tail.push(chunk);
    });
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
        const source = new GunzipSource(gunzip, size, limits);
        // One gzip member, then only NUL padding: a reader that stops at the first member (upstream's)
        // must see the same archive as this one, which decompresses every member. Checked once the whole
        // stream is read; a second member's bytes after the tar's end are this rule's too.
        const oneMember = () => {
            if (source.ended && !tail.oneMember(source.crc, source.total))
                throw new ReadError('gzip', MORE_THAN_ONE_MEMBER);
        };
        let read;
        try {
            read = await contents(source, file, limits);
        }
        catch (error) {
            if (error instanceof ReadError)
                oneMember();
            throw error;
        }
        if ('other' in read)
            return { kind: 'other', name: read.other };
        oneMember();
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
        if (error instanceof ReadError)
            throw error;
        const err = error;
        if (typeof err.code === 'string' && err.code.startsWith('Z_'))
            throw new ReadError('gzip', gzipReason(err));
        if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code))
            throw new ReadError('io', `cannot read file: ${err.code}`);
        throw error;
    }
    finally {
        input.destroy();
        gunzip.destroy();
    }
}
async function archive_readBundle(source, file, limits = read_limits/* DEFAULT_BUNDLE_LIMITS */.k$) {
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
        findings.push(skippedFinding({ ...at, member: 'events.ndjson' }, skipped));
    if (decisions.length === 0)
        findings.push((0,core_findings/* finding */.gk)('no_decisions', at, `evidence bundle verified; it holds no ${model/* SURFACE_SCHEMA */.SB} events, so it contributes no calls`));
    return { run: { artifact: file, decisions }, entries: [], findings, bundle: archive.facts };
}

;// CONCATENATED MODULE: ./src/read/files.ts
/**
 * One artifact file → what it contributes (a run, records, findings), by its name and role. The
 * file is read once and nothing of it is kept but the prepared decisions and records.
 */










/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const files_failure = (rel, message) => ({
    run: null,
    entries: [],
    findings: [(0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
});
const isBundle = (rel) => formatOf(rel) === 'bundle';
/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
async function readArtifact(rel, role, bytes, limits) {
    if (isBundle(rel))
        return role === 'audit' ? files_failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel, bundleLimits(limits));
    return readTextArtifact(rel, role, bytes, limits);
}
/**
 * Any artifact but an evidence bundle → what it contributes. Synchronous, and nothing it returns
 * refers to `bytes` (the text is decoded into strings), so `bytes` may be reused once it returns.
 */
function readTextArtifact(rel, role, bytes, limits) {
    const format = formatOf(rel);
    if (!format || format === 'bundle')
        return files_failure(rel, UNSUPPORTED);
    if (format === 'attestation')
        return files_failure(rel, ATTESTATION);
    if (role === 'runs')
        return readRunFile(rel, bytes, format, limits);
    if (format === 'log')
        return files_failure(rel, LOG_IN_AUDIT);
    return readAuditFile(rel, bytes, format, limits);
}
const ATTESTATION = 'an attestation sidecar (.intoto.jsonl) is read beside its bundle, never as a run or an audit export';
const LOG_IN_AUDIT = 'server logs are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = `unsupported file type: expected ${EXTENSION_LIST}`;
/**
 * The buffer this thread reads its inputs into, grown to the largest file read so far up to
 * SCRATCH_MAX (a larger file gets a buffer of its own). A fresh buffer per file is fresh memory
 * for the kernel to fault in, and reading large inputs spent most of `read` there (the profile and
 * the gain: bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
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
        fd = (0,external_node_fs_.openSync)(path, 'r');
        const size = (0,external_node_fs_.fstatSync)(fd).size;
        if (size > limits.maxFileBytes)
            return { ok: false, reason: (0,read_limits/* fileTooLarge */.ME)(size, limits) };
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
            const n = (0,external_node_fs_.readSync)(fd, buf, got, buf.length - got, null);
            if (n === 0)
                break;
            got += n;
        }
        if (got > limits.maxFileBytes)
            return { ok: false, reason: GREW(limits) };
        return { ok: true, value: buf.subarray(0, got) };
    }
    catch (error) {
        return { ok: false, reason: `cannot read file: ${ioReason(error)}` };
    }
    finally {
        if (fd !== undefined)
            (0,external_node_fs_.closeSync)(fd);
    }
}
/** The bytes of a file beside an input, their digest made on first use and kept. */
function besideRead(bytes) {
    let hex = null;
    return { kind: 'read', bytes, sha256: () => (hex ??= (0,binding/* sha256Hex */.fg)(bytes)) };
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
        st = (0,external_node_fs_.lstatSync)(file);
    }
    catch {
        return { kind: 'none' };
    }
    if (st.isSymbolicLink()) {
        let real;
        try {
            real = (0,external_node_fs_.realpathSync)(file);
        }
        catch {
            return refuse(`${what} is a broken symbolic link`);
        }
        if (!discover_inside((0,external_node_fs_.realpathSync)(workspace), real))
            return refuse(`${what} is a symbolic link that points outside the workspace; not followed`);
        st = (0,external_node_fs_.statSync)(real);
    }
    if (!st.isFile())
        return refuse(`${what} is not a regular file; not read`);
    const got = readTransient(file, limits);
    // A copy: the file beside is kept (its envelopes are checked later), the read buffer is not.
    return got.ok ? besideRead(Buffer.from(got.value)) : refuse(got.reason);
}
/**
 * A file a flag or an input names (a key, a trusted root, an export to import), read whole within
 * the file limit. Only a regular file is read (a link to one is followed: the user named it): a
 * FIFO would block and a device never end (`--trusted-root /dev/zero`). The reason when not.
 */
function readNamedFile(file, limits) {
    let st;
    try {
        st = (0,external_node_fs_.statSync)(file);
    }
    catch (error) {
        return { ok: false, reason: `cannot read (${ioReason(error)})` };
    }
    if (!st.isFile())
        return { ok: false, reason: 'not a regular file; not read' };
    const got = readTransient(file, limits);
    // A copy: the read buffer is reused by the next read.
    return got.ok ? { ok: true, value: Buffer.from(got.value) } : got;
}
/** Whether a file's size (as stat says) is within `max` bytes; false when it cannot be stat'ed (its reader says why). */
function sizeWithin(path, max) {
    try {
        return (0,external_node_fs_.statSync)(path).size <= max;
    }
    catch {
        return false;
    }
}
/** Hex sha256 of a file's bytes, streamed (a bundle is never held whole for it). */
async function fileSha256(path) {
    try {
        const hash = (0,external_node_crypto_.createHash)('sha256');
        for await (const chunk of (0,external_node_fs_.createReadStream)(path))
            hash.update(chunk);
        return hash.digest('hex');
    }
    catch {
        return undefined; // the reader reports why the file cannot be read
    }
}
/** @param digest also return the sha256 of the file's bytes (one more hash per input, nothing else) */
async function readOne(file, role, limits, digest = false) {
    const got = await readOneUnless(file, role, limits, digest, null);
    return got.kind === 'found' ? got.value : got.read;
}
/**
 * readOne, asking `lookUp` first with the sha256 of the file's bytes (a content-addressed cache,
 * gate/cache.ts): the file is read once and hashed, and those very bytes are read only when the
 * look-up has nothing (a bundle is streamed: hashed, then read, and its own digest compared).
 * `lookUp` runs synchronously while this thread's read buffer holds the file: it must not read
 * through readTransient. Without one (null), a text file is hashed only when `digest` asks.
 */
async function readOneUnless(file, role, limits, digest, lookUp) {
    const fail = (message) => ({
        kind: 'read',
        read: files_failure(file.rel, message),
        sha256: null,
        unkeyed: 'a file that cannot be read is tried again each run',
    });
    if (isBundle(file.rel)) {
        if (role === 'audit')
            return fail(BUNDLE_IN_AUDIT);
        // A bundle its reader refuses for its size is never hashed first (its refusal is cheap, its hash is not).
        const hashable = lookUp !== null && sizeWithin(file.path, (0,read_limits/* bundleLimits */.x0)(limits).maxCompressedBytes);
        const first = hashable ? await fileSha256(file.path) : undefined;
        const found = first === undefined || lookUp === null ? null : lookUp(first);
        if (found !== null)
            return { kind: 'found', value: found };
        // Streamed from disk: a bundle is never held whole beyond its events.
        const readResult = await archive_readBundle({ path: file.path }, file.rel, (0,read_limits/* bundleLimits */.x0)(limits));
        const own = readResult.bundle?.archiveSha256;
        const sha256 = digest ? (own ?? first ?? (await fileSha256(file.path))) : undefined;
        return {
            kind: 'read',
            read: sha256 === undefined ? readResult : { ...readResult, sha256 },
            ...(own !== undefined && own === first
                ? { sha256: own }
                : {
                    sha256: null,
                    unkeyed: own === undefined ? 'a bundle its reader refused is read again each run' : 'the bundle changed while it was read',
                }),
        };
    }
    if (!formatOf(file.rel))
        return fail(UNSUPPORTED);
    const got = readTransient(file.path, limits);
    if (!got.ok)
        return fail(got.reason);
    const bytes = got.value;
    // All before anything yields: the buffer is this thread's, and the next file is read into it.
    const sha256 = lookUp !== null || digest ? (0,binding/* sha256Hex */.fg)(bytes) : null;
    const found = sha256 === null || lookUp === null ? null : lookUp(sha256);
    if (found !== null)
        return { kind: 'found', value: found };
    const fileRead = readTextArtifact(file.rel, role, bytes, limits);
    if (sha256 === null)
        return { kind: 'read', read: fileRead, sha256: null, unkeyed: 'no cache' };
    return { kind: 'read', read: digest ? { ...fileRead, sha256 } : fileRead, sha256 };
}

// EXTERNAL MODULE: ./src/read/wire.ts
var read_wire = __nccwpck_require__(2155);
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
    // P's UTF-8 bytes are hashed and framed straight from its text (never a buffer of P of its own).
    if ((0,binding/* sha256Digest */.sI)(payload) !== member.signed_payload_digest)
        return (0,core_trust/* refused */.J5)('payload_digest_differs', 'payload digest differs');
    const ok = await verifyOnPool(paeText(member.payload_type, payload), key, Buffer.from(member.signature, 'base64'));
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
    const data = signature_pae(payloadType, envelope.payload);
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
            if (formatOf(file.rel) !== 'bundle')
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
 * One input file, with everything beside it, is the unit of work. `readEvidence` (the main thread)
 * or `readWire` (a worker, which sends text) runs on whichever thread reads the file
 * (gate/readers.ts): it reads and binds the file, finds its sidecars once (one look, one refusal
 * each: `<bundle>.intoto.jsonl`, `<file>.sigstore.json`, their shapes always checked), runs every
 * configured trust checker of its role (src/trust/checkers/), and returns core input with trust
 * decided. Signatures and payloads stay on this thread; what leaves is decisions.
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
/** Whether a file has a DSSE sidecar to read: an evidence bundle among the runs. */
const hasDsse = (task) => task.role === 'runs' && formatOf(task.file.rel) === 'bundle';
function readSidecars(task, setup) {
    return {
        dsse: hasDsse(task)
            ? readBeside(sidecarOf(task.file.path), 'the attestation sidecar', setup.workspace, setup.limits)
            : { kind: 'none' },
        sigstore: readBeside(sigstoreOf(task.file.path), 'the Sigstore bundle', setup.workspace, setup.limits),
    };
}
/** A bundle's `<bundle>.intoto.jsonl`, read once; its shape checked whatever is configured. */
function readDsse(task, got, setup, out) {
    if (!hasDsse(task))
        return { kind: 'none' };
    const rel = sidecarOf(task.file.rel);
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
        return { kind: 'malformed' };
    }
    if (setup.digest)
        out.digests.push([rel, got.sha256()]);
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
async function readSigstore(task, got, setup, out) {
    const rel = sigstoreOf(task.file.rel);
    const at = { file: rel, line: 1, column: 1 };
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at, got.reason));
        return { kind: 'refused', reason: got.reason };
    }
    if (setup.digest)
        out.digests.push([rel, got.sha256()]);
    // Named where it is imported, so the linter sees which exports are used.
    const { readSigstoreFile } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(842)]).then(__nccwpck_require__.bind(__nccwpck_require__, 3842));
    const file = readSigstoreFile(rel, got.bytes, setup.limits);
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
/** The evidence itself (the main thread): an entry is decoded. */
const AS_EVIDENCE = {
    found: (entry, rel) => (0,read_wire/* decodeCheckedWire */.JE)(entry.checked, rel),
    read: (evidence) => evidence,
};
/** Its encoded text (a worker): an entry's text is sent as it is (checked, never decoded here), a file's evidence encoded once. */
const AS_WIRE = {
    found: (entry) => entry.text,
    read: (evidence, wire, rel) => wire ?? (0,read_wire/* encodeRead */.TE)(evidence, rel),
};
/** One file and everything beside it → what it contributes, trust decided (see `deliver`). */
const readEvidence = (task, setup) => deliver(task, setup, AS_EVIDENCE);
/** The same, encoded for the thread that asked (a worker's answer). */
const evidence_readWire = (task, setup) => deliver(task, setup, AS_WIRE);
/**
 * One file and everything beside it → what it contributes, trust decided, in `form`. With a cache,
 * the evidence stored for these very bytes (the file's and its sidecars') under this set-up, when
 * there is a sound entry; else the file is read and its evidence stored.
 */
async function deliver(task, setup, form) {
    const { file, role } = task;
    const sidecars = readSidecars(task, setup);
    const cache = setup.cache;
    const shape = cache?.read ? await (0,gate_cache/* entryShape */.iQ)() : null;
    let key = null;
    let ignored;
    const found = (sha256) => {
        if (cache === null)
            return null;
        key = (0,gate_cache/* entryKey */.k2)(cache, role, file.rel, sha256, [(0,gate_cache/* besideKey */.yL)(sidecars.dsse), (0,gate_cache/* besideKey */.yL)(sidecars.sigstore)]);
        if (shape === null)
            return null;
        const entry = (0,gate_cache/* lookUp */.TE)(cache, key, shape);
        if (entry.ok)
            return entry.value;
        if (entry.reason !== null)
            ignored = entry.reason;
        return null;
    };
    const got = await readOneUnless(file, role, setup.limits, setup.digest || identitiesFor(setup, role), cache === null ? null : found);
    if (got.kind === 'found')
        return { value: form.found(got.value, file.rel), cache: { hit: true } };
    const evidence = await judge(task, got.read, sidecars, setup);
    if (cache === null)
        return { value: form.read(evidence, null, file.rel), cache: null };
    // Only evidence of exactly the bytes hashed is stored (a bundle that changed while it was read is not).
    if (got.sha256 === null || key === null)
        return { value: form.read(evidence, null, file.rel), cache: note(ignored, got.unkeyed ?? 'it has no key') };
    // Encoded once: the entry's body is the text a reading thread sends.
    const wire = (0,read_wire/* encodeRead */.TE)(evidence, file.rel);
    return { value: form.read(evidence, wire, file.rel), cache: note(ignored, (0,gate_cache/* store */.M_)(cache, key, wire)) };
}
/** What the cache did for a file that was read: an entry ignored, and why it was not stored (null: it was). */
function note(ignored, unstored) {
    return { hit: false, ...(ignored === undefined ? {} : { ignored }), ...(unstored === null ? {} : { unstored }) };
}
/** A file read, and its sidecars → what it contributes, every configured checker of its role run. */
async function judge(task, read, sidecars, setup) {
    const { file, role } = task;
    const out = { findings: [...read.findings], digests: [] };
    if (read.sha256 !== undefined)
        out.digests.push([file.rel, read.sha256]);
    const dsse = readDsse(task, sidecars.dsse, setup, out);
    const sigstore = await readSigstore(task, sidecars.sigstore, setup, out);
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
            records.push({ loc: entry.loc, record: entry.record, recomputed: entry.recomputed, signer: entry.signer, trust });
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
    return {
        run,
        records,
        statements,
        findings: out.findings,
        digests: out.digests,
        ...(read.strays ? { strays: read.strays } : {}),
        ...(read.rejectedClasses ? { rejectedClasses: read.rejectedClasses } : {}),
    };
}

;// CONCATENATED MODULE: ./src/gate/hints.ts
/**
 * What a newcomer's first mistakes need said (the inputs' defaults): a run input that matched
 * nothing on a repository with no run yet (how to bootstrap), a gate run from a subfolder (where the
 * repository root is, and -C), and a default folder that is missing while a near name exists
 * (`.assay/audits`, `assay/audit`): the first two are words for a finding the gate makes anyway; the
 * last is an error of its own (a red team: a coverage statement committed to `.assay/audits` was
 * never read, and the gate passed).
 */




/** The nearest directory above `dir` (at most 6 levels) that holds `.assay/runs`, or null. */
function rootAbove(dir) {
    let at = external_node_path_default().dirname(external_node_path_default().resolve(dir));
    for (let i = 0; i < 6; i++) {
        if ((0,external_node_fs_.existsSync)(external_node_path_default().join(at, '.assay', 'runs')))
            return at;
        const up = external_node_path_default().dirname(at);
        if (up === at)
            return null;
        at = up;
    }
    return null;
}
/** Words to add to "the run inputs matched no file": run from a subfolder, or a repository with no run yet. */
function noRunsHint(cwd) {
    const root = rootAbove(cwd);
    if (root)
        return `; ${root} holds .assay/runs: the gate runs from the repository root (run it there, or give -C ${external_node_path_default().relative(cwd, root) || '.'}; the action: working-directory)`;
    return "; on a repository with no run yet, commit the agent's first run before making this check required (examples/agent-run.yml opens a pull request with one; README, Quick start)";
}
/** The folders in `dir` (none when it cannot be listed). */
function foldersIn(dir) {
    try {
        return (0,external_node_fs_.readdirSync)(dir).filter((name) => (0,external_node_fs_.statSync)(external_node_path_default().join(dir, name)).isDirectory());
    }
    catch {
        return [];
    }
}
/**
 * A default input folder (`.assay/runs`, `.assay/audit`) that does not exist while a folder of a
 * near name does (a sibling, `.assay/audits`; or the same name under a parent of a near name,
 * `assay/audit`): an error naming it, since what it holds is not read (null when the folder exists
 * or nothing is near).
 */
function nearFolder(cwd, given, role) {
    if (given.length !== 1)
        return null;
    const wanted = external_node_path_default().resolve(cwd, given[0] ?? '');
    if ((0,external_node_fs_.existsSync)(wanted))
        return null;
    const parent = external_node_path_default().dirname(wanted);
    const base = external_node_path_default().basename(wanted);
    const sibling = (0,core_text/* nearestName */.qb)(base, foldersIn(parent));
    let near = sibling === null ? null : external_node_path_default().join(parent, sibling);
    if (near === null && !(0,external_node_fs_.existsSync)(parent)) {
        const uncle = (0,core_text/* nearestName */.qb)(external_node_path_default().basename(parent), foldersIn(external_node_path_default().dirname(parent)));
        const under = uncle === null ? null : external_node_path_default().join(external_node_path_default().dirname(parent), uncle);
        if (under !== null && (0,external_node_fs_.existsSync)(external_node_path_default().join(under, base)))
            near = external_node_path_default().join(under, base);
    }
    if (near === null)
        return null;
    const found = external_node_path_default().relative(cwd, near).split((external_node_path_default()).sep).join('/');
    return (0,core_findings/* inputFinding */.uY)('no_match', `${role}: ${given[0]}`, `there is no ${given[0]}, but there is ${found}: did you mean it? What it holds is not read (give ${role === 'runs' ? '--runs' : '--audit'} ${found}, or the action's ${role} input, or rename it)`, 'error');
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __nccwpck_require__(3136);
;// CONCATENATED MODULE: ./src/gate/pool.ts



/**
 * Tasks given to one worker at once. The main thread hands out files only between its own reads (a
 * file read there is synchronous), so a worker must hold enough not to go idle meanwhile
 * (bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
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
const stopped = (rel, why) => ({
    value: failed(rel, `the thread reading this file stopped (${why}); it is not verified`),
    cache: null,
});
/** A thread's answer that does not decode fails its file (never an unanswered read, never a crash). */
function decoded(text, rel, cache) {
    try {
        return { value: (0,read_wire/* decodeRead */.pp)(text, rel), cache };
    }
    catch (error) {
        return stopped(rel, `its answer did not decode: ${error instanceof Error ? error.message : String(error)}`);
    }
}
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
        return readEvidence(item(this.tasks, i), this.setup);
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
        if ('text' in m)
            item(this.results, m.id).resolve(decoded(m.text, rel, m.cache));
        else
            item(this.results, m.id).resolve(stopped(rel, m.thrown));
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
    const reply = (id, got) => {
        got.then((r) => port.postMessage({ id, text: r.value, cache: r.cache }), (e) => port.postMessage({ id, thrown: e instanceof Error ? e.message : String(e) }));
    };
    port.on('message', (t) => {
        chain = chain.then(() => {
            reply(t.id, readWire({ file: { path: t.path, rel: t.rel }, role: t.role }, setup));
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
            started[k] = readEvidence(task, setup);
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
 * bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)"). The default reads on the main thread below it; an
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
 * past where they pay (the measurements: bench/HISTORY.md, "Keyless checks on every core").
 */
const KEYLESS_WEIGHT_BYTES = 512 * 1024;
/** A task's work: its file's bytes, and its bundle when one is beside it and will be checked by identity. */
const weightOf = (t, setup) => sizeOf(t.file.path) + (identitiesFor(setup, t.role) && sizeOf(sigstoreOf(t.file.path)) > 0 ? KEYLESS_WEIGHT_BYTES : 0);
/** The bundled worker script beside the running bundle (dist/read-worker.js), or null when not built (tests of src/). */
function workerScript() {
    const here = external_node_path_default().dirname((0,external_node_url_.fileURLToPath)(import.meta.url));
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
function threadsFor(jobs, sizes, cores = (0,external_node_os_.availableParallelism)()) {
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

;// CONCATENATED MODULE: ./src/gate/settings/types.ts
/**
 * The typed settings of a verification, and the one error the settings parsers throw: a mistake in
 * a flag or an input, with a code from a closed set. It is thrown only inside src/gate/settings/ and
 * the entries' parsers, and caught where they return (`usage`), as a `UsageProblem`.
 */

/** A mistake in the settings (a flag or an input); the message names the flag or input. */
class UsageError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
/**
 * A mistake at a value of the policy file (a trust: section's entry, or the file it names): the
 * `policy` code (`policy_invalid`; no `--help` line), its message located `file:line:column` of
 * that value; `detail`, the words after the place, for a finding made at `at` instead.
 */
class PolicyMistake extends UsageError {
    at;
    detail;
    constructor(at, detail) {
        const short = at.commit?.slice(0, 12);
        super('policy', `${(0,core_findings/* placeOf */.$t)(at, true)}: ${detail}${short === undefined || detail.includes(short) ? '' : ` (${at.file} at commit ${short})`}`);
        this.at = at;
        this.detail = detail;
    }
}
/** Run a settings parser: its value, or the usage problem it threw. */
function usage(parse) {
    try {
        const value = parse();
        return { ok: true, value };
    }
    catch (error) {
        if (error instanceof UsageError)
            return { ok: false, reason: { code: error.code, message: error.message } };
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/gate/settings/paths.ts
/**
 * The paths a user gives, checked on disk: a working directory inside the workspace, an output that
 * does not leave the workspace through a committed link, an explicit input that exists (else the
 * nearest path that does is named).
 */






/**
 * A file a policy's trust: section names, in the repository at `root`: its repository path
 * (`/`-separated), or why it is none (it leaves the repository), in words naming it.
 */
function trustPathIn(root, file) {
    const abs = external_node_path_default().resolve(root, file);
    if (!discover_inside(root, abs))
        return { ok: false, reason: `${file} is outside the repository (trust files are read from it, at the same commit as the policy)` };
    return { ok: true, value: external_node_path_default().relative(root, abs).split((external_node_path_default()).sep).join('/') };
}
/**
 * A working directory: `value` resolved against `base`, which must be a directory and, when a
 * workspace is given, inside it. `name` is the flag or input named in the message.
 */
function directoryIn(workspace, base, value, name) {
    const dir = external_node_path_default().resolve(base, value);
    if (workspace !== null && !discover_inside(workspace, dir))
        throw new UsageError('path', `${name}: "${value}" is outside the workspace`);
    let isDir = false;
    try {
        isDir = (0,external_node_fs_.statSync)(dir).isDirectory();
    }
    catch {
        isDir = false;
    }
    if (!isDir)
        throw new UsageError('path', `${name}: "${value}" is not a directory`);
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
        throw new UsageError('output', `${name}: "${value}" is a directory; name a file to write`);
    if (!discover_inside(workspace, file))
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
            if (discover_inside(realWorkspace, real))
                return file;
            const via = external_node_path_default().relative(workspace, dir) || '.';
            throw new UsageError('output', `${name}: "${value}" leads out of the workspace through a symbolic link (${via} is ${real}); not written`);
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
        // A Windows path written on another OS: the same path with forward slashes, when it exists.
        const slashed = input.replaceAll('\\', '/');
        if ((external_node_path_default()).sep === '/' && slashed !== input && (0,external_node_fs_.existsSync)(external_node_path_default().resolve(cwd, slashed)))
            throw new UsageError('path', `${name}: "${input}" does not exist (did you mean "${slashed}"? paths take / on every OS)`);
        throw new UsageError('path', `${name}: "${(0,core_text/* visible */.RK)(input)}" does not exist${nearestExisting(cwd, abs)}`);
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
    // Names on disk are shown, never interpreted (a folder named with a line break and a workflow command).
    if (near !== null)
        return ` (did you mean "${(0,core_text/* visible */.RK)(rel(external_node_path_default().join(dir, near, ...missing.slice(1))))}"?)`;
    return ` (the nearest existing path is "${(0,core_text/* visible */.RK)(rel(dir))}")`;
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
/** The outputs given (flag, file), those not asked for left out. */
const given = (named) => named.flatMap(([flag, file]) => (file === null ? [] : [[flag, file]]));
/**
 * Every file a command writes, each named once: two flags naming one file (`--output r.json --vsa
 * r.json`, or through a directory link: `real/r.json` and `alias/r.json`) are a usage error; and
 * none is one of `inputs`, the files it reads.
 */
function distinctOutputs(named, inputs = []) {
    const seen = new Map();
    // An output naming a file the command reads would replace it (a red team: an export replaced by its own records).
    const read = new Map(inputs.map((input) => [canonical(input), input]));
    for (const [flag, file] of named) {
        if (file === null)
            continue;
        const where = canonical(file);
        const input = read.get(where);
        if (input !== undefined)
            throw new UsageError('conflict', `${flag}: names the input ${input}; a command never writes over what it reads (write to another file)`);
        const other = seen.get(where);
        if (other)
            throw new UsageError('conflict', `${flag}: names the same file as ${other} (${file}); each output needs its own file`);
        seen.set(where, flag);
    }
}

;// CONCATENATED MODULE: ./src/core/target-hash.ts
/**
 * The target hash the agent side computes (docs/target-hash.md, with its vectors): H(domain, value) =
 * "sha256:" + hex(sha256(utf8("assay.tool_target.v0:" + domain + ":" + norm(value)))), norm = trim of
 * Unicode White_Space at both ends (an explicit class: not U+FEFF, which String.prototype.trim also
 * removes), then full lower-casing. Plain labels (owner, repo, role) are never hashed, trimmed or
 * lower-cased; their control characters other than tab, LF and CR become U+FFFD.
 */

const DOMAINS = (/* unused pure expression or super */ null && ([
    'github_key_title',
    'github_label',
    'github_user',
    'slack_workspace',
    'slack_channel',
    'slack_principal',
    'workspace',
    'workspace_principal',
    'aws_iam_user',
]));
const WS = '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const normalize = (value) => value.replace(TRIM, '').toLowerCase();
const targetHash = (domain, value) => (0,binding/* sha256Digest */.sI)(`assay.tool_target.v0:${domain}:${normalize(value)}`);
/** A plain label as the agent side writes it. */
const label = (value) => value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd');

;// CONCATENATED MODULE: ./src/read/strict-yaml.ts



/**
 * The YAML parser, loaded by the entries (`loadYamlParser`) only when a YAML file is to be read:
 * bundled, it costs the action ~40 ms at start-up, paid by every run without a policy file.
 */
let yaml = null;
/** Loads the YAML parser once; every entry awaits it before it reads a policy or mapping file. */
async function loadYamlParser() {
    yaml ??= await __nccwpck_require__.e(/* import() */ 815).then(__nccwpck_require__.t.bind(__nccwpck_require__, 8815, 19));
}
function parser() {
    if (yaml === null)
        throw new Error('the YAML parser is not loaded: an entry must await loadYamlParser() before a YAML file is read');
    return yaml;
}
/** A YAML text's value read leniently (for a first look before the strict read reports its problems), or undefined when it does not parse. */
function yamlValue(source) {
    try {
        return parser().parse(source, { version: '1.2', maxAliasCount: 0 });
    }
    catch {
        return undefined;
    }
}
/** Every node's place by its JSON pointer (and a key's own place, `pointer#key`), for locating problems. */
function positions(contents, at) {
    const out = new Map();
    const y = parser();
    const walk = (node, pointer, keyAt) => {
        if (!y.isNode(node))
            return;
        const start = node.range?.[0] ?? 0;
        // A problem with a value is at the value; with a map or a list, at the key that holds it.
        out.set(pointer, at(y.isScalar(node) ? start : (keyAt ?? start)));
        if (y.isMap(node))
            for (const pair of node.items) {
                if (!y.isPair(pair) || !y.isScalar(pair.key))
                    continue;
                const name = String(pair.key.value).replace(/~/g, '~0').replace(/\//g, '~1');
                walk(pair.value, `${pointer}/${name}`, pair.key.range?.[0] ?? null);
                // A key's own place, for a problem with the key (an unknown key).
                out.set(`${pointer}/${name}#key`, at(pair.key.range?.[0] ?? start));
            }
        else if (y.isSeq(node))
            node.items.forEach((item, i) => {
                walk(item, `${pointer}/${i}`, null);
            });
    };
    walk(contents, '', null);
    return out;
}
/**
 * The first anchor, alias, explicit tag or merge key (`<<`) in a document, located at its own token
 * (an anchor at its `&`, not at the value it names).
 */
function forbiddenOf(contents, source, noun) {
    let found = null;
    const y = parser();
    const walk = (node) => {
        if (found !== null || !y.isNode(node))
            return;
        const start = node.range?.[0] ?? 0;
        if (y.isAlias(node)) {
            found = { offset: start, message: `an alias (*${node.source}): write each value out (what a reviewer reads must be what applies)` };
            return;
        }
        const anchor = node.anchor ?? '';
        if (anchor !== '') {
            const at = source.lastIndexOf(`&${anchor}`, start);
            found = {
                offset: at >= 0 ? at : start,
                message: `an anchor (&${anchor}): write each value out (what a reviewer reads must be what applies)`,
            };
            return;
        }
        if ((node.tag ?? '') !== '') {
            // The tag token's first character (`!!str`, `!e!x`), before the value it names.
            let at = source.lastIndexOf('!', start);
            while (at > 0 && !/[\s[{,:]/.test(source[at - 1] ?? ' '))
                at--;
            found = { offset: at >= 0 ? at : start, message: `an explicit tag (${node.tag}): ${noun} is plain YAML 1.2 with no tags` };
            return;
        }
        if (y.isMap(node))
            for (const pair of node.items) {
                if (!y.isPair(pair))
                    continue;
                if (y.isScalar(pair.key) && pair.key.value === '<<') {
                    found = {
                        offset: pair.key.range?.[0] ?? start,
                        message: 'a merge key (<<): YAML 1.2 has none; write each key out (what a reviewer reads must be what applies)',
                    };
                    return;
                }
                walk(pair.key);
                walk(pair.value);
            }
        else if (y.isSeq(node))
            for (const item of node.items)
                walk(item);
    };
    walk(contents);
    return found;
}
/** A YAML directive (`%YAML`, `%TAG`) before the document: the file is YAML 1.2 as the gate reads it, never another version. */
function directiveOf(source, noun) {
    const match = /^%[A-Za-z]+/m.exec(source);
    if (!match)
        return null;
    const end = source.search(/^---/m);
    if (end >= 0 && match.index > end)
        return null;
    return {
        offset: match.index,
        message: `a YAML directive (${match[0]}): ${noun} is YAML 1.2 and declares nothing (a %YAML 1.1 directive would turn on merge keys a reviewer does not see)`,
    };
}
/** A hint for the YAML syntax errors a newcomer makes (docs/policy.md §11 "YAML messages"). */
function syntaxHint(code, line, message) {
    // `Map keys must be unique` named no key (a newcomer).
    const key = code === 'DUPLICATE_KEY' ? /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:/.exec(line)?.[1] : undefined;
    if (key !== undefined)
        return ` (${key.startsWith('"') || key.startsWith("'") ? key : JSON.stringify(key)} is written twice in one mapping: keep one)`;
    if (code === 'BAD_SCALAR_START' || /(?::|^\s*-)\s+[@`]/.test(line))
        return ' (a plain value cannot start with @ or `: quote it, "@…")';
    if (/(?::|^\s*-)\s+\*/.test(line))
        return ' (a value starting with * is an alias in YAML: quote it, "*…")';
    if (code === 'BAD_INDENT' ||
        code === 'BLOCK_AS_IMPLICIT_KEY' ||
        code === 'MULTILINE_IMPLICIT_KEY' ||
        code === 'UNEXPECTED_TOKEN' ||
        /indent|indicator|same column/i.test(message))
        return ' (check the indentation: the keys of a "- " item line up with the first key after the dash, two spaces further in than the dash)';
    return '';
}
/**
 * A YAML text → its one document's value and the place of every node, or every syntax problem
 * located (with `empty`'s words for a file with no document).
 */
function readYamlDocument(source, context, empty) {
    const y = parser();
    const lines = new y.LineCounter();
    const docs = y.parseAllDocuments(source, {
        lineCounter: lines,
        uniqueKeys: true,
        strict: true,
        prettyErrors: false,
        version: '1.2',
        // The library's own warnings never reach stderr: what it warns of is refused here, located (a collection as a key: a red team).
        logLevel: 'error',
    });
    const list = Array.isArray(docs) ? docs : [docs];
    // A place in this file, with the commit it was read at when that is not the checkout.
    const file = context.path;
    const place = (line, column) => context.commit === null ? { file, line, column } : { file, line, column, commit: context.commit };
    const atOffset = (offset) => {
        const pos = lines.linePos(offset);
        return place(pos.line, pos.col);
    };
    const problems = [];
    // Bytes that are not UTF-8 were read as U+FFFD: the text judged would not be the file's bytes, nor its sha256 theirs.
    const garbled = source.indexOf('\uFFFD');
    if (garbled >= 0)
        problems.push((0,core_findings/* finding */.gk)(context.code, atOffset(garbled), `bytes that are not UTF-8 (read as U+FFFD): ${context.noun} is UTF-8 text`));
    if (list.length > 1)
        problems.push((0,core_findings/* finding */.gk)(context.code, atOffset(list[1]?.range?.[0] ?? 0), `a second YAML document: ${context.noun} holds one`));
    const doc = list[0];
    if (!doc || doc.contents === null)
        return { ok: false, reason: [(0,core_findings/* finding */.gk)(context.code, place(1, 1), empty)] };
    const directive = directiveOf(source, context.noun);
    if (directive !== null)
        problems.push((0,core_findings/* finding */.gk)(context.code, atOffset(directive.offset), directive.message));
    const lineAt = (offset) => {
        const from = source.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
        const to = source.indexOf('\n', offset);
        return source.slice(from, to < 0 ? source.length : to);
    };
    for (const e of [...doc.errors, ...doc.warnings])
        problems.push((0,core_findings/* finding */.gk)(context.code, atOffset(e.pos[0]), `${e.message.split('\n')[0] ?? e.code}${syntaxHint(e.code, lineAt(e.pos[0]), e.message)}`));
    const forbidden = problems.length > 0 ? null : forbiddenOf(doc.contents, source, context.noun);
    if (forbidden !== null)
        problems.push((0,core_findings/* finding */.gk)(context.code, atOffset(forbidden.offset), forbidden.message));
    if (problems.length > 0)
        return { ok: false, reason: problems };
    const value = doc.toJS({ maxAliasCount: 0 });
    const places = positions(doc.contents, atOffset);
    // A pointer to a field the file lacks lands on the nearest node it has (the entry missing it), never on 1:1.
    const where = (pointer, key = false) => {
        const exact = (key ? places.get(`${pointer}#key`) : undefined) ?? places.get(pointer);
        if (exact !== undefined)
            return exact;
        for (let cut = pointer.lastIndexOf('/'); cut > 0; cut = pointer.lastIndexOf('/', cut - 1)) {
            const parent = places.get(pointer.slice(0, cut));
            if (parent !== undefined)
                return parent;
        }
        return place(1, 1);
    };
    return { ok: true, value: { value, where, place } };
}
/** The schema node an instance path leads to (its $refs followed), for the known keys where one is misspelt. */
function schemaAt(root, segments) {
    const resolve = (node) => {
        if (!(0,core_json/* isObject */.Gv)(node))
            return null;
        const ref = node['$ref'];
        if (typeof ref === 'string' && ref.startsWith('#/$defs/') && root && (0,core_json/* isObject */.Gv)(root['$defs']))
            return resolve(root['$defs'][ref.slice(8)]);
        return node;
    };
    let node = resolve(root);
    for (const segment of segments) {
        if (!node)
            return null;
        const props = node['properties'];
        if ((0,core_json/* isObject */.Gv)(props) && Object.hasOwn(props, segment))
            node = resolve(props[segment]);
        else if (node['items'] !== undefined && /^\d+$/.test(segment))
            node = resolve(node['items']);
        else
            node = resolve(node['additionalProperties']);
    }
    return node;
}
/** The schema's problems, located, in words a person reads (a misspelt key names the nearest known one). */
function schemaProblems(value, s, where, code) {
    if (s.validate(value))
        return [];
    const root = (0,core_json/* isObject */.Gv)(s.schema) ? s.schema : null;
    const out = [];
    const seen = new Set();
    const errors = s.validate.errors ?? [];
    // A misspelt key is one mistake: the required key it was meant to be is not reported missing too.
    const meant = new Set();
    for (const e of errors) {
        const key = (0,core_json/* isObject */.Gv)(e.params) ? e.params['additionalProperty'] : undefined;
        if (e.keyword !== 'additionalProperties' || typeof key !== 'string')
            continue;
        const known = schemaAt(root, e.instancePath.split('/').slice(1));
        const near = (0,core_text/* nearestName */.qb)(key, known && (0,core_json/* isObject */.Gv)(known['properties']) ? Object.keys(known['properties']) : []);
        if (near)
            meant.add(`${e.instancePath}/${near}`);
    }
    for (const e of errors) {
        const segments = e.instancePath.split('/').slice(1);
        const name = segments.length === 0 ? 'the file' : segments.join('.');
        const params = (0,core_json/* isObject */.Gv)(e.params) ? e.params : {};
        let message;
        let at = where(e.instancePath);
        if (e.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
            const key = params['additionalProperty'];
            const known = schemaAt(root, segments);
            const props = known && (0,core_json/* isObject */.Gv)(known['properties']) ? Object.keys(known['properties']) : [];
            const near = (0,core_text/* nearestName */.qb)(key, props);
            // A key of a section written outside it (`require-signed-records` at the top, not under trust:; a newcomer).
            const home = near
                ? undefined
                : props.find((p) => {
                    const section = schemaAt(root, [...segments, p]);
                    return section !== null && (0,core_json/* isObject */.Gv)(section['properties']) && Object.hasOwn(section['properties'], key);
                });
            message = `unknown key "${key}" in ${name}${near
                ? ` (did you mean "${near}"?)`
                : home !== undefined
                    ? ` (it belongs under ${home}: write it inside the ${home}: section)`
                    : props.length > 0
                        ? ` (known: ${props.join(', ')})`
                        : ''}`;
            at = where(`${e.instancePath}/${key}`, true);
        }
        else if (e.keyword === 'required' && typeof params['missingProperty'] === 'string') {
            if (meant.has(`${e.instancePath}/${params['missingProperty']}`))
                continue;
            message = `${name} has no "${params['missingProperty']}" (required)`;
        }
        else if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
            const allowed = params['allowedValues'].map(String);
            const got = (0,core_json/* memberAt */.mz)(value, segments);
            // A near name, or one the value begins with (mode: warning → warn).
            const near = typeof got === 'string' ? ((0,core_text/* nearestName */.qb)(got, allowed) ?? allowed.find((a) => got.toLowerCase().startsWith(a)) ?? null) : null;
            message = `${name} must be one of ${allowed.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`;
        }
        else if (e.keyword === 'const') {
            message = `${name} must be ${JSON.stringify(params['allowedValue'])}`;
        }
        else if (e.keyword === 'type' && params['type'] === 'boolean') {
            // YAML 1.2 reads yes, on, True as text: only true and false are booleans (a newcomer).
            const got = (0,core_json/* memberAt */.mz)(value, segments);
            const meant = typeof got === 'string' ? (/^(y|yes|on|true)$/i.test(got) ? 'true' : /^(n|no|off|false)$/i.test(got) ? 'false' : null) : null;
            message = `${name} must be true or false${meant ? ` (YAML 1.2 reads ${JSON.stringify(got)} as text: write ${meant})` : ''}`;
        }
        else if (e.keyword === 'oneOf') {
            message = `${name} must be one glob (a string) or a list of them`;
        }
        else if (e.keyword === 'pattern' && s.patternMessage) {
            message = s.patternMessage(segments, (0,core_json/* memberAt */.mz)(value, segments)) ?? `${name} ${e.message ?? 'is invalid'}`;
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
        out.push((0,core_findings/* finding */.gk)(code, at, message));
    }
    return out;
}

;// CONCATENATED MODULE: ./src/read/policy-file.ts
/**
 * The policy file (docs/policy.md §2): YAML 1.2, one document, read strictly (duplicate keys, a tab
 * in indentation, an anchor or an alias, a second document: refused), its shape checked against
 * schemas/policy.schema.json (every problem, each located `file:line:column`, a misspelt key with
 * the nearest known one), then what a schema cannot say: unique rule names, globs only on plain
 * fields, fields the class binds, expiry at most 366 days after the verification time, signers
 * among those trusted, grandfathered paths named once. Nothing here reads a file: the text is given.
 */












/**
 * The files a policy text's trust: section names (keys, a trusted root), for an entry to read them at
 * the policy's commit before the settings are built; nothing when the text does not parse (the
 * reader reports that). The YAML parser must be loaded.
 */
function trustFilesNamed(source) {
    const value = yamlValue(source);
    const trust = (0,core_json/* isObject */.Gv)(value) && (0,core_json/* isObject */.Gv)(value['trust']) ? value['trust'] : null;
    if (!trust)
        return [];
    const root = trust['trusted-root'];
    return [...policy_file_strings(trust['trusted-keys']), ...policy_file_strings(trust['trusted-producers']), ...(typeof root === 'string' ? [root] : [])];
}
/** Seconds in 366 days: the furthest an exception may expire. */
const MAX_EXPIRY_SECONDS = 366 * 86_400;
/** `72h`, `3d`, `1d12h`, `90m`, `0` → seconds (the schema has checked the form; any size: Infinity at worst). */
function durationSeconds(text) {
    const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(text);
    if (!match)
        return 0;
    return Number(match[1] ?? 0) * 86_400 + Number(match[2] ?? 0) * 3_600 + Number(match[3] ?? 0) * 60;
}
/** The policy file's schema, with the words for a `pending` that is not a duration. */
const POLICY_SCHEMA = {
    validate: policyFile,
    schema: policySchema,
    patternMessage: (segments, got) => segments[0] !== 'pending'
        ? null
        : typeof got === 'string' && /^\d+$/.test(got)
            ? `pending: ${got} what? write ${got}h (or ${got}d, ${got}m)`
            : 'pending must be a duration of whole units d, h, m in that order (72h, 3d, 1d12h, 90m) or 0',
};
/** The longest wait `pending` may give: a longer one switches coverage off (docs/policy.md §11). */
const MAX_PENDING_SECONDS = 30 * 86_400;
/** `pending` as written → seconds; a bare number other than 0, or more than 30 days, is a problem (said through `bad`). */
function pendingOf(given, bad) {
    if (given === undefined || given === 0)
        return 0;
    if (typeof given === 'number') {
        bad(`pending: ${given} what? write ${given}h (or ${given}d, ${given}m); a bare number is only 0`);
        return 0;
    }
    if (typeof given !== 'string')
        return 0;
    const seconds = durationSeconds(given);
    if (seconds > MAX_PENDING_SECONDS) {
        bad(`pending: ${given} is more than 30d: a longer wait switches coverage off (a call would never be due); at most 30d`);
        return 0;
    }
    return seconds;
}
/** An expiry: an RFC 3339 date (00:00 UTC of that day) or date-time, through the one time parser. */
function expiryOf(text) {
    const day = (0,core_time/* parseDay */.Iq)(text);
    if (day)
        return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
    const t = (0,core_time/* parseRfc3339 */.TM)(text);
    return t.ok ? t : { ok: false, reason: `"${text}" is not an RFC 3339 date or date-time: it ${t.reason}` };
}
const policy_file_strings = (v) => typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
const policy_file_text = (o, k) => (typeof o[k] === 'string' ? o[k] : '');
/**
 * A policy file's text → the policy, or every problem located in it (`policy_invalid`). Class and
 * verb names are checked once the input is read (core/policy.ts `checkRuleNames`): what the input
 * holds counts as known.
 */
function readPolicyFile(source, context) {
    const read = readYamlDocument(source, { path: context.path, commit: context.commit, noun: 'a policy file', code: 'policy_invalid' }, 'the policy file is empty (it needs at least version: 1)');
    if (!read.ok)
        return read;
    const { value, where, place } = read.value;
    const shape = schemaProblems(value, POLICY_SCHEMA, where, 'policy_invalid');
    if (!(0,core_json/* isObject */.Gv)(value))
        return { ok: false, reason: shape.length > 0 ? shape : [(0,core_findings/* finding */.gk)('policy_invalid', place(1, 1), 'the policy file is not a mapping')] };
    // Every problem of the file at once: what the schema says and what it cannot (a bad level and a second rule of one name, both).
    const meant = meaning(value, context, where, (0,binding/* sha256Hex */.fg)(source));
    if (shape.length === 0)
        return meant;
    // What the schema already said of a line is not said again in other words.
    const more = meant.ok ? [] : meant.reason.filter((f) => !shape.some((g) => g.line === f.line));
    return { ok: false, reason: [...shape, ...more].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
}
/** What the schema cannot say, checked on a file of the right shape. */
/** A character no GitHub owner or repository name holds, and not the glob's star. */
const NOT_IN_A_NAME = /[^A-Za-z0-9._*-]/u;
function meaning(doc, context, where, sha256) {
    const problems = [];
    const bad = (pointer, message) => {
        problems.push((0,core_findings/* finding */.gk)('policy_invalid', where(pointer), message));
    };
    const trusted = new Set(context.signers ? [...context.signers.keyIds, ...context.signers.identities] : []);
    const rules = [];
    const names = new Set();
    const ruleList = Array.isArray(doc['rules']) ? doc['rules'] : [];
    ruleList.forEach((entry, i) => {
        if (!(0,core_json/* isObject */.Gv)(entry) || !(0,core_json/* isObject */.Gv)(entry['match']))
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
        const target = (0,core_json/* isObject */.Gv)(match['target']) ? match['target'] : {};
        const row = classRow(actionClass);
        const hashed = row?.hashed;
        const bound = boundFields(actionClass);
        for (const field of Object.keys(target)) {
            const pointer = `${at}/match/target/${field}`;
            const given = target[field];
            const hash = hashed?.get(field);
            if (hash) {
                if (!Array.isArray(given)) {
                    bad(pointer, `${field} is hashed: give a list of raw values ([${JSON.stringify(given)}]), each hashed as the agent hashes it`);
                    continue;
                }
                const values = policy_file_strings(given);
                if (values.some((v) => v.includes('*'))) {
                    bad(pointer, `${field} is hashed: a glob cannot match a hash; list the raw values`);
                    continue;
                }
                // A hash copied from a report (`key_title_hash`) would be hashed again and match nothing (a red team).
                // Any spelling of one: with its prefix, `sha256-`, bare hex, spaces around it.
                const digest = values.find((v) => /^\s*(sha256[:-])?[0-9a-f]{64}\s*$/i.test(v));
                if (digest !== undefined) {
                    bad(pointer, `${field} is hashed: ${JSON.stringify(`${digest.slice(0, 15)}…`)} is a hash, not a raw value (hashed again, it matches nothing); list the raw values`);
                    continue;
                }
                tests.push({ kind: 'hash', field: hash.field, hashes: new Set(values.map((v) => targetHash(hash.domain, v))) });
                continue;
            }
            // The hash itself named (`key_title_hash`): a glob over hash text matches any value; the raw field takes a list.
            const raw = [...(hashed?.entries() ?? [])].find(([, h]) => h.field === field)?.[0];
            if (raw !== undefined) {
                bad(pointer, `${field} is a hash: match on ${raw} with a list of raw values ([...]), each hashed as the agent hashes it`);
                continue;
            }
            if (bound && !bound.includes(field)) {
                const plain = bound.filter((f) => !f.endsWith('_hash'));
                const hashedNames = [...(hashed?.keys() ?? [])];
                const near = (0,core_text/* nearestName */.qb)(field, [...plain, ...hashedNames]);
                bad(pointer, `${actionClass} binds no field ${JSON.stringify(field)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; its fields: ${[...plain, ...hashedNames].join(', ')}`);
                continue;
            }
            // A whole-number field (an issue number, a comment id) is a JSON number in every subject, and a glob matches text only (a red team: `number: "*"` was valid, and matched nothing).
            if (row?.wholeNumbers.has(field)) {
                bad(pointer, `${field} is a whole number in ${actionClass}'s subjects: a glob matches text only, so this rule could never match; match on the other fields`);
                continue;
            }
            const globs = policy_file_strings(given);
            const caseless = row?.caseless.has(field) ?? false;
            const named = caseless && (field === 'owner' || field === 'repo');
            const slash = named ? globs.findIndex((g) => g.includes('/')) : -1;
            if (slash >= 0) {
                bad(Array.isArray(given) ? `${pointer}/${slash}` : pointer, field === 'repo'
                    ? `repo is the name alone; put the organisation in owner (${JSON.stringify(globs[slash])} can never match a repository name)`
                    : `owner is the organisation alone (${JSON.stringify(globs[slash])} holds a /, which no owner has)`);
                continue;
            }
            // A GitHub owner or repository name holds only ASCII letters, digits, '.', '_' and '-': a look-alike
            // (U+2011 pasted from chat), a space or a control character could never match (a red team: the call fell to the default).
            const odd = named ? globs.findIndex((g) => NOT_IN_A_NAME.test(g)) : -1;
            if (odd >= 0) {
                const glob = globs[odd];
                const ch = glob.match(NOT_IN_A_NAME)?.[0] ?? '';
                const code = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
                bad(Array.isArray(given) ? `${pointer}/${odd}` : pointer, `${JSON.stringify((0,core_text/* quote */.hD)(glob, 80))} holds ${code}, which no GitHub ${field === 'repo' ? 'repository' : 'owner'} name has (letters, digits, '.', '_' and '-' only, and '*'): it could never match`);
                continue;
            }
            tests.push(globTest(field, globs, caseless));
        }
        const signedBy = Array.isArray(entry['signed-by']) ? policy_file_strings(entry['signed-by']) : null;
        if (signedBy && context.signers !== null) {
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
        const rule = {
            name,
            selector: verb === null ? actionClass : `${actionClass}:${verb}`,
            actionClass,
            verb,
            target: tests,
            level: require,
            mode,
            signedBy,
            at: where(at),
            classAt: where(`${at}/match/class`),
            verbAt: verb === null ? null : where(`${at}/match/verb`),
        };
        const earlier = shadowing(rules, rule);
        if (earlier !== null)
            bad(at, `rule ${name} can never apply: the earlier rule ${earlier.name} (line ${earlier.at?.line ?? '?'}) matches every call it matches, and the first match wins; narrow the earlier rule or move this one above it`);
        rules.push(rule);
    });
    const exceptions = [];
    const exceptionList = Array.isArray(doc['exceptions']) ? doc['exceptions'] : [];
    exceptionList.forEach((entry, i) => {
        if (!(0,core_json/* isObject */.Gv)(entry))
            return;
        const at = `/exceptions/${i}`;
        const rule = policy_file_text(entry, 'rule');
        // A missing or mistyped field is the shape check's finding, at its line; judged again here it added a stray one at 1:1.
        if (typeof entry['rule'] === 'string' && !names.has(rule)) {
            const near = (0,core_text/* nearestName */.qb)(rule, names);
            bad(`${at}/rule`, `the exception names rule ${JSON.stringify(rule)}, which the file does not have${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`);
        }
        const expiresText = policy_file_text(entry, 'expires');
        const expires = expiryOf(expiresText);
        if (!expires.ok) {
            if (typeof entry['expires'] === 'string')
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
        if (!(0,core_json/* isObject */.Gv)(entry))
            return;
        const isRun = typeof entry['run'] === 'string';
        const isAudit = typeof entry['audit'] === 'string';
        if (isRun === isAudit) {
            bad(`/grandfathered/${i}`, 'a grandfathered entry names either run: (a run judged for honesty only) or audit: (an audit file whose trust is not asked), one of them');
            return;
        }
        const kind = isRun ? 'run' : 'audit';
        const file = policy_file_text(entry, kind);
        if (runs.has(file))
            bad(`/grandfathered/${i}/${kind}`, `a second entry for ${file}: each file is grandfathered once`);
        runs.add(file);
        grandfathered.push({ kind, run: file, sha256: policy_file_text(entry, 'sha256'), reason: policy_file_text(entry, 'reason'), at: where(`/grandfathered/${i}`) });
    });
    const pendingSeconds = pendingOf(doc['pending'], (message) => bad('/pending', message));
    const trust = (0,core_json/* isObject */.Gv)(doc['trust']) ? policy_file_trustOf(doc['trust'], where, bad) : null;
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
            pendingSeconds,
            exceptions,
            grandfathered,
            source: { path: context.path, commit: context.commit, sha256 },
            trust,
        },
    };
}
/** The `trust:` section (docs/policy.md §9), its shape already checked; `require-*: true` with nothing trusted is a problem. */
function policy_file_trustOf(t, where, bad) {
    const list = (key) => policy_file_strings(t[key]);
    const paths = (key) => list(key).map((p, i) => ({ path: p, at: where(`/trust/${key}/${i}`) }));
    const values = (key) => list(key).map((value, i) => ({ value, at: where(`/trust/${key}/${i}`) }));
    const issuer = t['certificate-oidc-issuer'];
    const flag = (key) => t[key] === true;
    const trust = {
        mode: t['mode'] === 'warn' ? 'warn' : 'enforce',
        trustedKeys: paths('trusted-keys'),
        signerIdentities: values('trusted-signer-identities'),
        requireSignedRecords: flag('require-signed-records'),
        trustedProducers: paths('trusted-producers'),
        producerIdentities: values('trusted-producer-identities'),
        requireAttestedRuns: flag('require-attested-runs'),
        sourceRefs: Array.isArray(t['source-refs']) ? values('source-refs') : null,
        issuer: typeof issuer === 'string' ? { value: issuer, at: where('/trust/certificate-oidc-issuer') } : null,
        trustedRoot: typeof t['trusted-root'] === 'string' ? { path: t['trusted-root'], at: where('/trust/trusted-root') } : null,
        at: where('/trust'),
    };
    if (trust.requireSignedRecords && trust.trustedKeys.length === 0 && trust.signerIdentities.length === 0)
        bad('/trust/require-signed-records', 'require-signed-records: true with no trusted-keys and no trusted-signer-identities: nothing could ever be trusted');
    if (trust.requireAttestedRuns && trust.trustedProducers.length === 0 && trust.producerIdentities.length === 0)
        bad('/trust/require-attested-runs', 'require-attested-runs: true with no trusted-producers and no trusted-producer-identities: nothing could ever be trusted');
    return trust;
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
function invalidInEffect(file, problems, why = '') {
    const lines = problems.slice(0, 10).map((f) => `${f.file === null ? file.path : (0,core_findings/* placeOf */.$t)(f, true)}: ${f.message}`);
    const more = problems.length > 10 ? `\n… and ${problems.length - 10} more problem(s)` : '';
    return new UsageError('policy', `the policy in effect (${file.path} at ${policy_short(file.commit)}) is invalid (policy_invalid):\n${lines.join('\n')}${more}${why}`);
}
/** The head's problems as findings of the pull request, each naming the file it was read from. */
const headFindings = (problems) => problems.map((f) => f.file === null ? f : (0,core_findings/* finding */.gk)('policy_invalid', f, `${f.message} (this pull request's policy; it must be valid to merge)`));
/** A pull request's policy read again with what it will have once merged (its signers): its problems as findings of the pull request. */
function headUnder(head, context) {
    const r = readPolicyFile(head.text, { ...context, path: head.path, commit: head.commit });
    return r.ok ? [] : headFindings(r.reason);
}
/** The first line of a file as read: a file of another commit says which. */
const placeIn = (file) => file?.commit ? { file: file.path, line: 1, column: 1, commit: file.commit } : { file: file?.path ?? '', line: 1, column: 1 };
/** Whether two policy texts say the same (byte for byte). */
const same = (a, b) => (a === null ? b === null : b !== null && a.text === b.text);
/**
 * The policy in effect, and what a pull request does to it.
 * @param context the verification time and the trusted signers (what a policy's own checks need)
 */
function settlePolicy(given, context, repair = { open: true }) {
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
        // The one repair path: an invalid base policy, and a head whose policy is valid; never a base that is
        // valid by itself and invalid only under the trust the workflow's inputs give (the pull request may edit them).
        if (!repair.open)
            throw invalidInEffect(base ?? { path: '', commit: null, text: '' }, baseRead.reason, " It is valid by itself: its signed-by names signers the trust inputs of this run do not give, and the inputs are the workflow file, which a pull request may edit; so it is never replaced by the pull request's policy. Give the trust it names (rotating a key: give the old and the new key until the policy names the new one), or move trust into the policy file's trust: section, read at the base (docs/policy.md §9).");
        if (head && headRead?.ok) {
            const at = { file: head.path, line: 1, column: 1 };
            // A warning, never a plain notice: every call passing here failed under the base (§11), and the
            // base may be invalid only under inputs the pull request edited (a red team dropped trusted-keys).
            const why = `the base policy (${base?.path} at ${policy_short(base?.commit ?? null)}) is invalid; this pull request repairs it, and is judged under its own policy (review it: nothing of the base's applies here)`;
            return { policy: headRead.value, review: { findings: [(0,core_findings/* finding */.gk)('policy_changed', at, why, 'warning')], head: null }, repaired: true };
        }
        throw invalidInEffect(base ?? { path: '', commit: null, text: '' }, baseRead.reason);
    }
    const inEffect = baseRead?.ok ? baseRead.value : null;
    if (same(base, head))
        return { policy: inEffect, review: null };
    const at = placeIn(head ?? base);
    if (headRead && !headRead.ok)
        return { policy: inEffect, review: { findings: headFindings(headRead.reason), head: null } };
    const what = head === null
        ? `this pull request deletes the policy file ${base?.path}; the change takes effect after merge (the base's policy applies here)`
        : base === null
            ? `this pull request adds the policy file ${head.path}; it takes effect after merge (the inputs apply here)`
            : `this pull request changes the policy file ${head.path}; the change takes effect after merge (the base's policy applies here)`;
    // A deleted file trusts what the inputs say, which is no trust: section at all.
    const loosened = head === null
        ? trustLoosening(inEffect?.trust ?? null, null)
        : headRead?.ok
            ? trustLoosening(inEffect?.trust ?? null, headRead.value.trust)
            : null;
    const findings = [(0,core_findings/* finding */.gk)('policy_changed', at, what)];
    if (loosened !== null)
        findings.push((0,core_findings/* finding */.gk)('policy_changed', at, `this pull request loosens trust in ${head?.path ?? 'the policy file'} (${loosened}): it takes effect after merge; a reviewer must approve it`, 'warning'));
    return {
        policy: inEffect,
        review: { findings, head: headRead?.ok ? headRead.value : null, ...(head === null && base ? { deleted: base.path } : {}) },
    };
}
/** Whether two trust: sections trust differently (either way): a policy's effect measured under the one is not the other's. */
function trustChanged(base, head) {
    if (base === null || head === null)
        return base !== head;
    return trustLoosening(base, head) !== null || trustLoosening(head, base) !== null;
}
/** How a head's trust: section trusts more than the base's (docs/policy.md §9, §11), in words; null: it does not. */
function trustLoosening(base, head) {
    if (base === null)
        return null;
    if (head === null)
        return 'it removes the trust: section';
    const why = [];
    if (base.mode === 'enforce' && head.mode === 'warn')
        why.push('trust.mode enforce → warn');
    if (base.requireSignedRecords && !head.requireSignedRecords)
        why.push('require-signed-records turned off');
    if (base.requireAttestedRuns && !head.requireAttestedRuns)
        why.push('require-attested-runs turned off');
    const added = (a, b) => b.filter((x) => !a.includes(x));
    const paths = (l) => l.map((p) => p.path);
    const values = (l) => (l ?? []).map((v) => v.value);
    // A removal loosens too: with no key left, signed records are no longer checked at all (a red team dropped every key).
    for (const [name, a, b] of [
        ['trusted-keys', paths(base.trustedKeys), paths(head.trustedKeys)],
        ['trusted-producers', paths(base.trustedProducers), paths(head.trustedProducers)],
        ['trusted-signer-identities', values(base.signerIdentities), values(head.signerIdentities)],
        ['trusted-producer-identities', values(base.producerIdentities), values(head.producerIdentities)],
        ['source-refs', values(base.sourceRefs), values(head.sourceRefs)],
    ]) {
        if (added(a, b).length > 0)
            why.push(`${name} adds ${added(a, b).join(', ')}`);
        if (added(b, a).length > 0)
            why.push(`${name} removes ${added(b, a).join(', ')}`);
    }
    const issuer = (t) => t.issuer?.value ?? null;
    if (issuer(base) !== issuer(head))
        why.push(`certificate-oidc-issuer ${issuer(base) ?? '(the default)'} → ${issuer(head) ?? '(the default)'}`);
    if ((base.trustedRoot?.path ?? null) !== (head.trustedRoot?.path ?? null))
        why.push('trusted-root changes');
    return why.length > 0 ? why.join('; ') : null;
}
/** A trusted root the same way: the base's text in effect; a head that differs is named. */
function settleTrustFile(name, given) {
    if (given.kind === 'file')
        return { text: given.file, review: null };
    const { base, head } = given;
    if (!base)
        throw new UsageError('file', `${name}: ${head?.path ?? 'the file'} does not exist at the base commit; trust material is read at the base on pull requests (merge the file first)`);
    if (same(base, head))
        return { text: base, review: null };
    const at = placeIn(head ?? base);
    return {
        text: base,
        review: (0,core_findings/* finding */.gk)('policy_changed', at, `this pull request changes ${name} (${base.path}): trust material is read at the base, so the change takes effect after merge`),
    };
}
/**
 * A pull request's reading of the base's grandfathered audit files (docs/policy.md §9, §10): their
 * records, whose trust is not asked, bind only calls of run files present with the same bytes at the
 * base, never a call the pull request adds or changes (a red team: a replayed call took a
 * grandfathered unsigned record under require-signed-records, and met a verified rule). When the
 * base's files cannot be compared, they bind no call of this pull request, and a finding says why.
 * @param unchanged the files present with the same bytes at the base (as the report names them), or why that is not known
 */
function historyOnly(policy, unchanged) {
    const entries = policy.grandfathered.filter((g) => g.kind === 'audit' && !g.onlyIn);
    if (entries.length === 0)
        return { policy, findings: [] };
    const onlyIn = unchanged.ok ? unchanged.value : new Set();
    const findings = unchanged.ok
        ? []
        : [
            (0,core_findings/* finding */.gk)('policy_changed', item(entries, 0).at, `the grandfathered audit file(s) of the base's policy bind no call of this pull request: ${unchanged.reason}; their records, whose trust is not asked, bind only calls of runs the base holds with the same bytes (check out with fetch-depth: 0)`, 'warning'),
        ];
    return {
        policy: { ...policy, grandfathered: policy.grandfathered.map((g) => (g.kind === 'audit' && !g.onlyIn ? { ...g, onlyIn } : g)) },
        findings,
    };
}
/** What a pull request's policy adds to the base's: exceptions (by binding and rule) and grandfathered entries (by run and bytes) the base does not have. */
function addedEntries(base, head) {
    const known = new Set(base.exceptions.map((e) => `${e.binding}\u0000${e.rule}\u0000${e.expiresText}`));
    const pinned = new Set(base.grandfathered.map((g) => `${g.run}\u0000${g.sha256}`));
    return {
        exceptions: head.exceptions.filter((e) => !known.has(`${e.binding}\u0000${e.rule}\u0000${e.expiresText}`)),
        grandfathered: head.grandfathered.filter((g) => !pinned.has(`${g.run}\u0000${g.sha256}`)),
    };
}
/**
 * The break-glass path (docs/policy.md §10): the exceptions and grandfathered entries a pull request
 * adds apply in that pull request to run files present with the same bytes at the base (`atBase`),
 * never to what it adds or changes; everything else in its policy waits for the merge. When the base
 * tree cannot be read, or the pull request changes an audit export the base holds, nothing of the
 * head applies, and a finding says why.
 * @param added what the head adds (`addedEntries`)
 * @param atBase the run files (as the report names them) present with the same bytes at the base, or why nothing of the head applies now
 */
function withBreakGlass(base, head, added, atBase) {
    const count = added.exceptions.length + added.grandfathered.length;
    if (count === 0)
        return { policy: base, findings: [] };
    const at = added.exceptions[0]?.at ?? added.grandfathered[0]?.at ?? { file: head.source?.path ?? '', line: 1, column: 1 };
    if (!atBase.ok)
        return {
            policy: base,
            findings: [
                (0,core_findings/* finding */.gk)('policy_changed', at, `this pull request adds ${count} exception(s) or grandfathered entr(ies); none applies now: ${atBase.reason}; they apply after merge`),
            ],
        };
    const onlyIn = atBase.value;
    return {
        policy: {
            ...base,
            exceptions: [...base.exceptions, ...added.exceptions.map((e) => ({ ...e, onlyIn }))],
            grandfathered: [...base.grandfathered, ...added.grandfathered.map((g) => ({ ...g, onlyIn }))],
        },
        findings: [],
    };
}

;// CONCATENATED MODULE: ./src/gate/gate.ts
/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */


















function discoverAll(settings) {
    const workspace = external_node_path_default().resolve(settings.workspace);
    const cwd = external_node_path_default().resolve(settings.cwd);
    return ['audit', 'runs'].map((role) => ({ role, d: discover(settings[role], cwd, workspace, settings.explicit[role], role) }));
}
/** The checkout the workspace lies in: the nearest folder above it (or it) holding `.git`, else the workspace itself. */
function checkoutOf(workspace) {
    const real = canonical(external_node_path_default().resolve(workspace));
    for (let at = real;;) {
        if ((0,external_node_fs_.existsSync)(external_node_path_default().join(at, '.git')))
            return at;
        const parent = external_node_path_default().dirname(at);
        if (parent === at)
            return real;
        at = parent;
    }
}
/**
 * Why the cache's folder cannot be the cache, or null. A folder that holds an input, or lies inside
 * an input's, would hide an input (a run a pull request names like an entry) or have its entries read
 * as evidence; a folder inside the checkout is one a pull request can commit entries to, and an entry
 * is believed (docs/cache.md): a red team's forged entries passed a failing pull request. Compared
 * with links resolved (a link to the runs folder was taken for a folder of its own).
 */
function cacheClash(settings, found, cacheDir) {
    const dir = canonical(external_node_path_default().resolve(cacheDir));
    // Each input by its path as found and the folder both as given and resolved (one resolution, not
    // one per input: 620 of them cost 30 ms); a folder inside an input's, through a link, is caught below.
    const asGiven = external_node_path_default().resolve(cacheDir);
    for (const { d } of found)
        for (const f of [...d.files, ...d.attestations])
            if (discover_inside(dir, external_node_path_default().resolve(f.path)) || discover_inside(asGiven, external_node_path_default().resolve(f.path)))
                return `the cache's folder holds an input (${f.rel}): give the cache a folder of its own, outside the runs and the audit exports (an input there would be hidden, or an entry read as evidence)`;
    // A folder inside an input's (the part of a glob before its first pattern character): empty today, its entries inputs tomorrow.
    for (const given of [...settings.runs, ...settings.audit]) {
        const root = canonical(external_node_path_default().resolve(settings.cwd, given.split(/[*?[{]/, 1)[0] ?? given));
        if (discover_inside(root, dir))
            return `the cache's folder lies inside an input (${given}): give the cache a folder of its own, outside the runs and the audit exports (its entries would be read as evidence)`;
    }
    const checkout = checkoutOf(settings.workspace);
    if (discover_inside(checkout, dir))
        return `the cache's folder lies inside the checkout (${checkout}): a pull request can commit entries there, and an entry is believed; give it a folder outside the checkout (in CI, under $RUNNER_TEMP; on a machine of your own, ~/.cache/receipt-gate)`;
    return null;
}
function statOrNull(file) {
    try {
        return (0,external_node_fs_.statSync)(file);
    }
    catch {
        return null;
    }
}
/** Why a file the entry will write is an input it reads (a red team: the report written over an audit export), or null. */
function outputOverInput(writes, found) {
    if (writes.length === 0)
        return null;
    // Each output as given and resolved; each input by its path as found (one resolution per input would cost: see cacheClash).
    const outputs = new Map(writes.flatMap(([flag, file]) => [[external_node_path_default().resolve(file), flag], [canonical(file), flag]]));
    // An output already there is the same file as an input when they are one inode (a link, a hard link, another case of the name).
    const there = new Map(writes.flatMap(([flag, file]) => {
        const st = statOrNull(file);
        return st ? [[`${st.dev}:${st.ino}`, flag]] : [];
    }));
    for (const { d } of found)
        for (const f of [...d.files, ...d.attestations]) {
            let flag = outputs.get(external_node_path_default().resolve(f.path));
            if (flag === undefined && there.size > 0) {
                const st = statOrNull(f.path);
                flag = st ? there.get(`${st.dev}:${st.ino}`) : undefined;
            }
            if (flag !== undefined)
                return `${flag}: names the input ${f.rel}; a command never writes over what it reads (write to another file)`;
        }
    return null;
}
async function collect(settings, setup, roots, open, found) {
    const findings = [];
    const inputs = new Map();
    const runs = [];
    const records = [];
    const statements = [];
    const cwd = external_node_path_default().resolve(settings.cwd);
    const attestations = new Map();
    const readers = await open(found.flatMap(({ role, d }) => d.files.map((file) => ({ file, role }))), setup, settings.jobs);
    let next = 0;
    const strays = { runs: 0, audit: 0 };
    const strayFiles = [];
    const rejected = new Map();
    const notes = [];
    try {
        for (const { role, d } of found) {
            for (const f of d.findings)
                findings.push(f);
            for (const a of d.attestations)
                attestations.set(a.rel, a);
            const near = settings.explicit[role] ? null : nearFolder(cwd, settings[role], role);
            if (near)
                findings.push(near);
            if (role === 'runs' && d.files.length === 0) {
                findings.push((0,core_findings/* inputFinding */.uY)('no_artifacts', `runs: ${settings.runs.join(', ') || '(none)'}`, `the run-artifact inputs (${settings.runs.join(', ')}) matched no ${EXTENSION_LIST} file: a gate that sees nothing must not pass${noRunsHint(cwd)}`));
            }
            for (const file of d.files) {
                const { value: evidence, cache } = await readers.read(next++);
                if (cache)
                    notes.push([file.rel, cache]);
                for (const [rel, sha256] of evidence.digests)
                    inputs.set(rel, sha256);
                for (const f of evidence.findings)
                    findings.push(f);
                if (evidence.run)
                    runs.push(evidence.run);
                strays[role] += evidence.strays ?? 0;
                if (evidence.strays)
                    strayFiles.push({ rel: file.rel, role, n: evidence.strays });
                for (const c of evidence.rejectedClasses ?? [])
                    if (!rejected.has(c))
                        rejected.set(c, file.rel);
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
    const runFiles = found.find((f) => f.role === 'runs')?.d.files.length ?? 0;
    // Only when nothing else already failed: a run that did not parse is the root cause, named once.
    if (runFiles > 0 && runs.every((r) => r.decisions.length === 0) && !findings.some((f) => f.severity === 'error'))
        findings.push(noDecisions(settings, runFiles, strays, findings.find((f) => f.code === 'run_not_started') ?? null));
    // The other role's objects in a file no input of that role names are never read: an error, not a
    // notice (a red team: a failing run among the audit exports, a tampered record among the runs, passed).
    const readAs = new Map(found.map(({ role, d }) => [role, new Set(d.files.map((f) => f.rel))]));
    for (const { rel, role, n } of strayFiles) {
        const other = role === 'runs' ? 'audit' : 'runs';
        if (readAs.get(other)?.has(rel))
            continue;
        const what = role === 'runs' ? 'audit record(s) or coverage statement(s)' : 'run object(s) (decision surfaces or server tracing lines)';
        findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, `holds ${n} ${what}, which the ${role} inputs do not read, and no ${other} input names this file: they are not judged; give the file to the ${other} inputs, or move it out`));
    }
    // Audit inputs that read run objects and not one record or statement (pointed at the runs folder): no
    // export was read, and a gate that read none must not pass quietly (a red team: a notice, and a pass).
    const auditFiles = found.find((f) => f.role === 'audit')?.d.files.length ?? 0;
    if (auditFiles > 0 && strays.audit > 0 && records.length === 0 && statements.length === 0)
        findings.push((0,core_findings/* inputFinding */.uY)('no_match', `audit: ${settings.audit.join(', ')}`, `the audit inputs (${settings.audit.join(', ')}) hold ${strays.audit} run object(s) and not one audit record or coverage statement: no audit export was read; are runs and audit swapped?`, 'error'));
    // The attestation files the readers open: each file's <file>.sigstore.json, a run bundle's <bundle>.intoto.jsonl.
    const opened = new Set(found.flatMap(({ role, d }) => d.files.flatMap((f) => role === 'runs' && formatOf(f.rel) === 'bundle' ? [sigstoreOf(f.path), sidecarOf(f.path)] : [sigstoreOf(f.path)])));
    for (const f of attestationsNotRead(attestations.values(), opened))
        findings.push(f);
    for (const f of settings.policyReview?.findings ?? [])
        findings.push(f);
    const stale = staleShippedRoot(settings);
    if (stale)
        findings.push(stale);
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
        fileSha256: inputs,
        rejected,
        cache: (0,gate_cache/* tally */.N4)(notes),
    };
}
/**
 * Run inputs that hold files but not one decision (a capture that went wrong, an empty file, the
 * inputs swapped): a gate that read no call must not pass. When the files hold the other role's
 * objects, it says the inputs look swapped.
 */
function noDecisions(settings, files, strays, notStarted) {
    const given = settings.runs.join(', ');
    if (notStarted !== null)
        return (0,core_findings/* inputFinding */.uY)('no_artifacts', `runs: ${given || '(none)'}`, `the agent's server failed to start (${notStarted.file ?? 'a run'}:${notStarted.line ?? 1}: ${notStarted.message}): the run inputs (${given}) hold ${files} file(s) and not one decision, and a gate that read no call must not pass`);
    const swapped = strays.runs > 0 || strays.audit > 0
        ? `; the run inputs hold ${strays.runs} audit record(s) or coverage statement(s) and the audit inputs hold ${strays.audit} run object(s): are runs and audit swapped?`
        : "; an empty or truncated capture (check how the run was written: stderr redirected to the file from the server's start?)";
    return (0,core_findings/* inputFinding */.uY)('no_artifacts', `runs: ${given || '(none)'}`, `the run inputs (${given}) hold ${files} file(s) and not one decision: a gate that read no call must not pass${swapped}`);
}
/**
 * `trusted_root_stale`: keyless trust rests on the root shipped with receipt-gate, taken more than
 * 180 days before the decision time. Sigstore rotates keys and adds logs; a root that old may refuse
 * good bundles (chain_untrusted, log_unknown), which must read as a root to refresh, not a forgery.
 */
function staleShippedRoot(settings) {
    if (!settings.keyless || settings.keyless.trustedRoot !== null)
        return null;
    const taken = Date.parse(SHIPPED_ROOT_TAKEN);
    const days = Math.floor((settings.now.seconds * 1000 - taken) / 86_400_000);
    if (!(days > SHIPPED_ROOT_MAX_AGE_DAYS))
        return null;
    return (0,core_findings/* inputFinding */.uY)('trusted_root_stale', 'trusted-root: (the public-good root shipped with receipt-gate)', `the Sigstore trusted root shipped with receipt-gate was taken on ${SHIPPED_ROOT_TAKEN.slice(0, 10)}, ${days} days ago (more than ${SHIPPED_ROOT_MAX_AGE_DAYS}): update receipt-gate or pass a fresh trusted-root (gh attestation trusted-root > .github/sigstore/trusted_root.jsonl)`);
}
/**
 * Attestations the gate finds and does not read: `orphan_attestation` for one with no artifact beside
 * it; `invalid_artifact` for a DSSE envelope beside a file that is not an evidence bundle (only a
 * bundle's is read: garbage there, or a run renamed so, passed in silence; a red team).
 */
function attestationsNotRead(attestations, opened) {
    const out = [];
    for (const a of attestations) {
        if (opened.has(a.path) || sameFileAsOne(a.path, opened))
            continue;
        const artifact = attestedBy(a.path) ?? a.path;
        // Not read beside an artifact: one that holds evidence is that evidence renamed (a red team: a failing
        // run as ok.json.SIGSTORE.JSON, or beside a folder or a file the gate does not read, passed in silence).
        const held = evidenceHeldBy(a.path, artifact);
        if (held) {
            out.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: a.rel, line: held.line, column: 1 }, `named like an attestation, but not read as one (only <file>.sigstore.json and <bundle>.intoto.jsonl beside a file the gate reads, in lower case), and it holds ${held.why}: this evidence is not read; give it its own name, or move it out of the input`));
            continue;
        }
        // An attestation of an attestation attests nothing the gate reads: an attestation is never an artifact.
        if (attestedBy(artifact) !== null)
            out.push((0,core_findings/* finding */.gk)('orphan_attestation', { file: a.rel, line: 1, column: 1 }, `an attestation of an attestation (${external_node_path_default().basename(artifact)} is itself an attestation): attestations are never artifacts, so this one attests nothing the gate reads`));
        else if (!(0,external_node_fs_.existsSync)(artifact))
            out.push((0,core_findings/* finding */.gk)('orphan_attestation', { file: a.rel, line: 1, column: 1 }, `no ${external_node_path_default().basename(artifact)} beside this attestation: a renamed or removed artifact must not lose its attestation silently`));
        else if (/\.intoto\.jsonl$/i.test(a.path) && formatOf(artifact) !== 'bundle')
            out.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: a.rel, line: 1, column: 1 }, `a DSSE envelope beside ${external_node_path_default().basename(artifact)}, which is not an evidence bundle: receipt-gate reads .intoto.jsonl beside .tar.gz bundles only (a run or an export is attested by a Sigstore bundle, ${external_node_path_default().basename(artifact)}.sigstore.json); it is not read`));
        else if (!(isFile(artifact) && (a.path === sigstoreOf(artifact) || a.path === sidecarOf(artifact))))
            // A Sigstore bundle of a file the gate does not read (a signed checksum list) attests it, not evidence: quiet.
            out.push((0,core_findings/* finding */.gk)('orphan_attestation', { file: a.rel, line: 1, column: 1 }, `not read: an attestation is read as ${external_node_path_default().basename(artifact)}.sigstore.json (or a bundle's .intoto.jsonl), in lower case, beside a file the gate reads, and ${external_node_path_default().basename(artifact)} is none (a folder, another case, a file of neither role): it attests nothing`));
    }
    return out;
}
/** Whether a file is one of `paths` under another case of its name (a filesystem that ignores case opens it so). */
function sameFileAsOne(file, paths) {
    const lower = file.toLowerCase();
    for (const p of paths) {
        if (p.toLowerCase() !== lower)
            continue;
        try {
            const [x, y] = [(0,external_node_fs_.statSync)(p), (0,external_node_fs_.statSync)(file)];
            if (x.ino === y.ino && x.dev === y.dev)
                return true;
        }
        catch {
            // Not there under that name: not the same file.
        }
    }
    return false;
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
    trustMode: s.trustMode,
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
        const root = k.trustedRoot && { name: k.trustedRoot.name, text: k.trustedRoot.text };
        const loaded = await rootsOf(root, settings.limits);
        // A root the policy file names is its mistake, located at the entry (docs/policy.md §9); a flag's or an input's is the file's.
        const at = k.trustedRoot?.at;
        if (!loaded.ok)
            return {
                ok: false,
                reason: at ? { code: 'policy', message: new PolicyMistake(at, loaded.reason).message } : { code: 'file', message: loaded.reason },
            };
        identities = { signers: k.signers, producers: k.producers, roots: root };
        roots = loaded.value.map((root) => root.sha256);
    }
    // Grandfathered runs are pinned by their bytes: every run is hashed then.
    const hash = digests || settings.policy.grandfathered.length > 0;
    const judged = {
        limits: settings.limits,
        digest: hash,
        trust: { recordKeys: keyMaterial(settings.trustedKeys), producerKeys: keyMaterial(settings.trustedProducers), identities },
    };
    // Every member of the set-up but where the workspace is (which changes no file's evidence) is in the cache's keys.
    const c = settings.cache;
    const cache = c ? { dir: c.dir, read: c.read, setupKey: (0,gate_cache/* setupKey */.bj)(c.build, judged) } : null;
    return { ok: true, value: { roots, setup: { ...judged, workspace: external_node_path_default().resolve(settings.workspace), cache } } };
}
/**
 * settings → read (+ sidecars, trust) → verify. A rule naming a class or verb that neither the gate
 * nor the input knows is a usage problem (semantics §7): it is known only once the input is read.
 * @param digests hash every input read (for a verdict attestation)
 */
async function runGate(settings, digests = false, open = openReaders) {
    const prepared = await readSetup(settings, digests);
    if (!prepared.ok)
        return prepared;
    const found = discoverAll(settings);
    const clash = settings.cache ? cacheClash(settings, found, settings.cache.dir) : null;
    if (clash !== null)
        return { ok: false, reason: { code: 'path', input: 'cache', message: clash } };
    const over = outputOverInput(settings.writes, found);
    if (over !== null)
        return { ok: false, reason: { code: 'conflict', message: over } };
    const evidence = await collect(settings, prepared.value.setup, prepared.value.roots, open, found);
    const seen = classesSeen(evidence.runs);
    // A policy whose rules name what nothing has.
    const names = checkRuleNames(settings.policy, seen, evidence.rejected);
    if (!names.ok) {
        // A rule of the policy file is located in it (at the misspelt class or verb); a rule of the require input is named by it.
        const inFile = names.reason.flatMap((p) => (p.rule.at !== null && p.at !== null ? [`${(0,core_findings/* placeOf */.$t)(p.at, true)}: ${p.message}`] : []));
        if (inFile.length > 0)
            return { ok: false, reason: { code: 'policy', message: inFile.join('\n') } };
        return { ok: false, reason: { code: 'value', message: names.reason.map((p) => p.message).join('; '), input: 'require' } };
    }
    // The pull request's own policy names classes and verbs as strictly (docs/policy.md §1): a misspelt
    // class would pass here under the base's and, once merged, stop every pull request, its repair too.
    const reviewed = settings.policyReview?.head ?? null;
    const headNames = reviewed ? checkRuleNames(reviewed, seen, evidence.rejected) : null;
    const headInvalid = headNames && !headNames.ok
        ? headNames.reason.map((p) => (0,core_findings/* finding */.gk)('policy_invalid', p.at ?? { file: reviewed?.source?.path ?? '', line: 1, column: 1 }, `${p.message} (this pull request's policy; it must be valid to merge)`))
        : [];
    // The trusted root the pull request leaves the trust: section naming must load as the base's did (loaded here, with the Sigstore code).
    const headRoot = settings.policyReview?.headRoot ?? null;
    const rootLoads = headRoot ? await rootsOf({ name: headRoot.name, text: headRoot.text }, settings.limits) : null;
    const rootInvalid = headRoot && rootLoads && !rootLoads.ok
        ? (0,core_findings/* finding */.gk)('policy_invalid', headRoot.at, `${rootLoads.reason} (this pull request's policy; it must be valid to merge)`)
        : null;
    const added = [];
    added.push(...headInvalid);
    if (rootInvalid)
        added.push(rootInvalid);
    const checked = added.length > 0 ? { ...evidence, findings: [...evidence.findings, ...added] } : evidence;
    const report = verify(checked, optionsOf(settings));
    const head = headInvalid.length > 0 ? null : settings.policyReview?.head;
    // With break-glass entries applied now, the change is measured from the base's own policy (docs/policy.md §10, §11).
    const before = settings.policyReview?.before;
    const from = head && before ? verify(checked, { ...optionsOf(settings), policy: before }) : report;
    return {
        ok: true,
        value: {
            report: head
                ? withEffect(report, from, verify(checked, { ...optionsOf(settings), policy: head }), trustChanged(settings.policy.trust, head.trust))
                : report,
            inputs: evidence.inputs,
            cache: settings.cache ? evidence.cache : null,
        },
    };
}
/**
 * A report with a pull request's policy change and its effect: the calls whose verdict the head's
 * policy would change from the base's own (`from`: the report itself, or with break-glass entries
 * applied now, the same evidence under the base's policy without them), named in its policy_changed finding.
 */
function withEffect(report, from, underHead, trustMoves) {
    const list = changes(from, underHead);
    // Break-glass entries applied now (the base's policy with them is not the base's own): said, so "the base's policy applies here" is not the whole story.
    const applied = from === report ? '' : '; the exceptions and grandfathered entries it adds apply now to what the base already holds';
    // Its trust: section is read once merged: the effect measured here is its rules' under the base's trust, and says so (a red team: "no change" for a dropped trust: section).
    const under = trustMoves
        ? " under the base's trust (its trust: section changes too, which this corpus is judged under only once merged)"
        : '';
    const effect = `${applied}; its effect on this corpus${under}: ${changesText(list, PULL_CHANGE)}`;
    const source = underHead.policy.source;
    // A loosening (a call that fails under the base passes under the head) is a warning, never a quiet notice (docs/policy.md §11).
    const loose = loosens(list);
    let raised = 0;
    const findings = report.findings.map((f) => {
        if (f.code !== 'policy_changed' || f.file !== source?.path)
            return f;
        if (loose && f.severity === 'notice') {
            raised++;
            return { ...f, severity: 'warning', message: `${f.message}${effect}; it loosens the policy: a reviewer must approve it` };
        }
        return { ...f, message: `${f.message}${effect}` };
    });
    if (raised > 0)
        findings.sort(core_findings/* compareFindings */.Eg);
    return {
        ...report,
        findings,
        totals: raised > 0 ? { ...report.totals, notices: report.totals.notices - raised, warnings: report.totals.warnings + raised } : report.totals,
        ...(source ? { policy_change: { path: source.path, sha256: source.sha256, changes: list } } : {}),
    };
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
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
    cache: 'false',
};

;// CONCATENATED MODULE: ./src/gate/repository.ts
/**
 * Repository files as they are at a commit, read with git (never a shell; the ref and the path are
 * arguments): the policy file and trust material at a pull request's base, or at the CLI's
 * `--policy-ref`. Nothing is fetched: a commit that is not in the local clone is said to be absent.
 */










/** Most bytes a file read from git may hold (a policy file or a trusted root is small). */
const MAX_BYTES = 16 * 1024 * 1024;
/** Most bytes a whole tree's listing may hold. */
const TREE_BYTES = 512 * 1024 * 1024;
/** Git's environment: never a prompt; replace refs never followed (they showed another commit's tree under a commit's id: a red team). */
const gitEnv = () => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_NO_REPLACE_OBJECTS: '1' });
function git(cwd, args, maxBuffer = MAX_BYTES) {
    const r = (0,external_node_child_process_namespaceObject.spawnSync)('git', ['-C', cwd, ...args], {
        encoding: 'utf8',
        maxBuffer,
        env: gitEnv(),
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
 * The commit a name the user gave (`--policy-ref`, `--against`) names: a commit id, a full ref name
 * (`refs/…`), or a short name that git reads one way only. Refused: a name git could read as objects
 * naming different commits (a tag `origin/main` beside the remote branch, a tag named like an
 * abbreviated commit id: git takes the tag, and an author who can push a tag chose the policy that
 * judged them; red teams), revision suffixes (`^0`, `~0`, `@{…}`: they skipped the check), and a
 * name the clone does not have.
 */
function resolveUserRef(cwd, ref) {
    if (!isCommitId(ref) && !/^[\w./-]+$/.test(ref))
        return {
            ok: false,
            reason: `"${ref}" is not a ref name or a commit id (revision suffixes such as ^, ~ or @{…} are not read: give the commit id)`,
        };
    const commit = resolveCommit(cwd, ref);
    if (commit === null)
        return { ok: false, reason: `"${ref}" names no commit of the repository at ${cwd}` };
    if (isCommitId(ref) || ref.startsWith('refs/'))
        return { ok: true, value: commit };
    const at = (name) => git(cwd, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]).stdout.trim();
    // git's own order of reading a short name (git rev-parse, "specifying revisions"), and the objects a hex name abbreviates.
    const named = [`refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`, `refs/remotes/${ref}/HEAD`].map((full) => [full, at(full)]);
    if (/^[0-9a-f]{4,63}$/.test(ref))
        for (const id of git(cwd, ['rev-parse', `--disambiguate=${ref}`]).stdout.split('\n'))
            if (/^[0-9a-f]{40,64}$/.test(id))
                named.push([`the commit ${id.slice(0, 12)}`, at(id)]);
    const found = named.filter(([, c]) => c !== '');
    if (found.some(([, c]) => c !== commit))
        return {
            ok: false,
            reason: `"${ref}" is ambiguous: ${found.map(([full, c]) => `${full} (${c.slice(0, 12)})`).join(', ')}; give the full ref name or the commit id`,
        };
    return { ok: true, value: commit };
}
/** A commit id as an event names a base: 40 hex digits (SHA-1) or 64 (SHA-256), never a ref name. */
const isCommitId = (text) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
/** Git's mode of a symbolic link. */
const LINK_MODE = '120000';
/** The repository path of a file on disk, `/`-separated. */
const repository_relOf = (cwd, file) => external_node_path_default().relative(cwd, external_node_path_default().resolve(cwd, file)).split((external_node_path_default()).sep).join('/');
/** The path and each folder above it: `a/b/c` → `a`, `a/b`, `a/b/c`. */
const prefixes = (rel) => rel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
/**
 * A file as it is at a commit: its text, null when the commit has no such file, or why it cannot be
 * read (no git, not a repository, the commit absent, the file or a folder above it a symbolic link:
 * git would give a link's text where the contents API gives its target, so neither is read).
 * @param file the file's path on disk (a path in the checkout), read at `commit` relative to `cwd`
 */
function readAtCommit(cwd, commit, file) {
    const sha = resolveCommit(cwd, commit);
    if (sha === null)
        return {
            ok: false,
            reason: `commit ${commit} is not in this clone (fetch it, e.g. actions/checkout with fetch-depth: 0, or give the API a token)`,
        };
    const rel = repository_relOf(cwd, file);
    const tree = git(cwd, ['ls-tree', '-z', sha, '--', ...prefixes(rel).map((p) => `./${p}`)]);
    if (tree.status !== 0)
        return { ok: false, reason: `git ls-tree ${sha.slice(0, 12)} failed: ${tree.stderr.trim() || `status ${tree.status}`}` };
    // Whether the commit has the file is the tree's word, never a read that failed (a red team: in a
    // blobless clone whose remote could not be reached, the base's policy read as absent, and the pull
    // request's own policy judged it).
    // git lists every entry of a folder on the way when a longer path below it is named too: only the
    // path and the folders above it are asked about (a link beside the file is not on its way).
    const onTheWay = new Set(prefixes(rel));
    let kind = null;
    for (const entry of tree.stdout.split('\0')) {
        const tab = entry.indexOf('\t');
        if (tab < 0 || !onTheWay.has(entry.slice(tab + 1)))
            continue;
        const [mode, type] = entry.slice(0, tab).split(' ');
        if (mode === LINK_MODE)
            return { ok: false, reason: linkReason(entry.slice(tab + 1), rel) };
        if (entry.slice(tab + 1) === rel)
            kind = type ?? '';
    }
    if (kind === null)
        return { ok: true, value: null };
    if (kind !== 'blob')
        return { ok: false, reason: `${rel} at ${sha.slice(0, 12)} is a ${kind}, not a file` };
    const shown = git(cwd, ['show', `${sha}:./${rel}`]);
    if (shown.status !== 0)
        return { ok: false, reason: `git show ${sha.slice(0, 12)}:${rel} failed: ${shown.stderr.trim() || `status ${shown.status}`}` };
    return { ok: true, value: shown.stdout };
}
/** Why a policy or trust file behind a link is not read (docs/policy.md §11 "The file read is a file"). */
const linkReason = (link, rel) => `${link === rel ? rel : `${link} (above ${rel})`} is a symbolic link: a policy or trust file is read only as a regular file (a link's text and its target could say different things); commit the file itself`;
/**
 * Whether a repository path is where a policy file is sometimes put instead of the default
 * (docs/policy.md §11 "A policy at a near-miss path"), in any case: `.github/Receipt-Gate.yml` is
 * not the default on a case-sensitive clone, and renamed so, it left the gate with no policy (a red
 * team); a misspelt name (two edits at most) in the same places, another extension after it.
 */
function isNearMissPolicy(rel) {
    if (rel === defaults_DEFAULTS.policy)
        return false;
    const lower = rel.toLowerCase();
    if (/^\.github\/receipt-gate\/[^/]+\.ya?ml$/.test(lower))
        return true;
    // A file at the root or in .github/ whose name is a misspelling of the policy's (`recipt-gate.yml`,
    // `receipt_gate.yml`, `receipt.gate.yml`, `receipt-gate.ym`, `receipt-gate.yml.txt`, `receipt-gate.policy.yml`): it was read by
    // no one, in silence (red teams). Only a name that says "gate": `receipt-date.yml` is another file.
    const m = /^(\.github\/)?([^/]+)$/.exec(lower);
    const name = m?.[2];
    if (name === undefined || !name.includes('gate'))
        return false;
    const dot = name.indexOf('.');
    const [stem, ext] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
    // Words may come before the extension too (`receipt-gate.policy.yml`, `.prod.yaml`: a red team).
    const kinds = m?.[1] ? /^(?:\.[a-z0-9_-]+)*\.(?:ya?ml|json)(?:\.[a-z0-9]+)*$/ : /^(?:\.[a-z0-9_-]+)*\.ya?ml(?:\.[a-z0-9]+)*$/;
    if (kinds.test(ext) && (0,core_text/* editDistance */.YC)(stem, 'receipt-gate') <= 2)
        return true;
    const whole = m?.[1]
        ? ['receipt-gate', 'receipt-gate.yml', 'receipt-gate.yaml', 'receipt-gate.json']
        : ['receipt-gate', 'receipt-gate.yml', 'receipt-gate.yaml'];
    return whole.some((w) => (0,core_text/* editDistance */.YC)(name, w) <= 2);
}
/** The folders whose entries may be near misses: the root, `.github`, `.github/receipt-gate` (in any case: their names are tested by isNearMissPolicy). */
const NEAR_MISS_FOLDERS = /^(?:|\.github|\.github\/receipt-gate)$/i;
/** Why `git ls-tree` of a commit could not say (its first line of error). */
const lsTreeFailed = (commit, r) => ({
    ok: false,
    reason: `git ls-tree ${commit.slice(0, 12)} failed (${r.stderr.trim().split('\n')[0] || `exit ${r.status}`})`,
});
/** A near-miss policy file at a commit (git), or null; why the commit's tree cannot be listed (never "none found": a gate that cannot look must not run without the policy). */
function nearMissAtCommit(cwd, commit) {
    // The root's entries, and every path below a folder at the root named `.github` in any case.
    const root = git(cwd, ['ls-tree', '-z', commit, '--', '.']);
    if (root.status !== 0)
        return lsTreeFailed(commit, root);
    // "<mode> <type> <id>\t<name>": a folder at the root is no file there (a `.receipt-gate/` clone of the CLI is not a policy).
    const listed = root.stdout.split('\0').flatMap((e) => {
        const tab = e.indexOf('\t');
        return tab < 0 ? [] : [{ tree: e.slice(0, tab).split(' ')[1] === 'tree', name: e.slice(tab + 1) }];
    });
    const names = listed.filter((e) => !e.tree).map((e) => e.name);
    const folders = listed.filter((e) => e.tree && /^\.github$/i.test(e.name)).map((e) => `./${e.name}`);
    if (folders.length === 0)
        return { ok: true, value: names.sort().find(isNearMissPolicy) ?? null };
    const below = git(cwd, ['ls-tree', '-r', '-z', '--name-only', commit, '--', ...folders]);
    if (below.status !== 0)
        return lsTreeFailed(commit, below);
    return { ok: true, value: [...names, ...below.stdout.split('\0')].sort().find(isNearMissPolicy) ?? null };
}
/**
 * A near-miss policy file in the checkout, or null: any entry there but a folder, a link included
 * (dangling or not: a commit's tree lists it, so once merged the base has it; a red team's link to
 * nowhere passed the pull request and stopped every one after).
 */
function nearMissOnDisk(cwd) {
    const found = [];
    // The root, then each folder whose name is a near-miss folder's in any case, one level at a time.
    const walk = (rel) => {
        let entries;
        try {
            entries = (0,external_node_fs_.readdirSync)(external_node_path_default().join(cwd, rel), { withFileTypes: true });
        }
        catch {
            return;
        }
        for (const e of entries) {
            const child = rel === '' ? e.name : `${rel}/${e.name}`;
            if (e.isDirectory()) {
                if (NEAR_MISS_FOLDERS.test(child))
                    walk(child);
            }
            else if (isNearMissPolicy(child))
                found.push(child);
        }
    };
    walk('');
    return found.sort()[0] ?? null;
}
/** Why a file of the checkout is not read as a policy or trust file (it or a folder above it inside `cwd` is a link), or null. */
function linkOnDisk(cwd, rel) {
    for (const prefix of prefixes(rel)) {
        try {
            if ((0,external_node_fs_.lstatSync)(external_node_path_default().join(cwd, prefix)).isSymbolicLink())
                return linkReason(prefix, rel);
        }
        catch {
            return null;
        }
    }
    return null;
}
/** Git's object id of a blob: sha1 (or sha256 for a 64-digit repository) of `blob <size>\0` and the bytes. */
function blobId(bytes, hex = 40) {
    const hash = (0,external_node_crypto_.createHash)(hex === 64 ? 'sha256' : 'sha1');
    hash.update(`blob ${bytes.length}\0`);
    hash.update(bytes);
    return hash.digest('hex');
}
/**
 * Why the files a verdict rests on may not be the bytes of `commit`, or null: the clone at `dir` is
 * at another commit, a file is not a regular file of that commit's tree (untracked, ignored, a
 * symbolic link there), its bytes now are not those the gate judged (`files`: path relative to `dir`
 * → the sha256 hex judged, or null when only the file is known), or they are not the commit's blob
 * (byte for byte, or with CRLF line ends a checkout made of LF ones; never through a filter driver:
 * a configured clean filter made any bytes "match"). Git's word on the checkout is never taken: a
 * committed link, `update-index --assume-unchanged` and `git replace` each hid an edit (red teams).
 */
function checkoutDiffers(dir, commit, restsOn) {
    const { files, whole } = restsOn;
    const short = commit.slice(0, 12);
    const head = resolveCommit(dir, 'HEAD');
    if (head === null)
        return `${dir} is not a git clone whose commit can be read, so its files cannot be said to be ${short}'s`;
    if (head !== commit)
        return `the checkout is at ${head.slice(0, 12)}, not at ${short}, the commit the verdict would name`;
    // The commit's whole tree, "<mode> <type> <id>\t<path>" from the top; `dir`'s place in it (a -C subfolder, a
    // working-directory, a policy above it as ../.github/receipt-gate.yml).
    const prefix = git(dir, ['rev-parse', '--show-prefix']);
    const tree = git(dir, ['ls-tree', '-r', '-z', '--full-tree', commit], TREE_BYTES);
    if (tree.status !== 0 || prefix.status !== 0)
        return `git cannot list ${short}'s tree (${(tree.stderr || prefix.stderr).trim().split('\n')[0] || `exit ${tree.status}`})`;
    const entries = new Map();
    for (const entry of tree.stdout.split('\0')) {
        const m = /^(\d+) \w+ ([0-9a-f]{40,64})\t(.+)$/s.exec(entry);
        if (m?.[1] && m[2] && m[3])
            entries.set(m[3], { mode: m[1], id: m[2] });
    }
    // Every file of the commit under what the gate was asked to read is in the checkout: a sparse checkout,
    // or a step that deleted a failing run before the gate ran, judged less than the commit holds (a red team:
    // a signed PASSED verdict named a commit whose full tree fails).
    const top = cloneTop(dir);
    const under = whole.map((w) => external_node_path_default().posix.normalize(external_node_path_default().posix.join(prefix.stdout.trim(), w.split((external_node_path_default()).sep).join('/'))));
    if (top !== null && under.length > 0)
        for (const [rel, entry] of entries) {
            if (entry.mode === SUBMODULE_MODE)
                continue;
            const base = under.find((u) => u === '.' || rel === u || rel.startsWith(`${u}/`));
            // Whatever its name: the gate reads a folder's other files to see whether they hold evidence (a red team: a
            // deleted `bad.txt` holding a failing run, or a folder left at a file's path, passed).
            if (base === undefined || fileOnDisk(external_node_path_default().join(top, rel)))
                continue;
            return `${rel} is in ${short}'s tree${base === rel ? '' : ` under ${base}`}, but not in the checkout (a sparse checkout, or deleted before the gate ran)`;
        }
    for (const [file, judged] of files) {
        const rel = external_node_path_default().posix.normalize(external_node_path_default().posix.join(prefix.stdout.trim(), file.split((external_node_path_default()).sep).join('/')));
        const entry = entries.get(rel);
        if (entry === undefined)
            return `${file} is not in ${short}'s tree (untracked or ignored in the checkout)`;
        if (entry.mode === LINK_MODE)
            return `${file} is a symbolic link in ${short}: the bytes read are another file's`;
        let bytes;
        try {
            bytes = (0,external_node_fs_.readFileSync)(external_node_path_default().join(dir, file));
        }
        catch {
            return `${file} cannot be read again to compare it with ${short}'s`;
        }
        const sha256 = (0,external_node_crypto_.createHash)('sha256').update(bytes).digest('hex');
        if (judged !== null && sha256 !== judged)
            return `${file} changed while the gate ran: the bytes judged are not on disk now`;
        if (blobId(bytes, entry.id.length) === entry.id || blobId(lfOf(bytes), entry.id.length) === entry.id)
            continue;
        // A blob with mixed line ends checked out under eol=crlf: each lone LF became CRLF, its own CRLFs kept (undoing them all cannot give it back).
        if (bytes.includes(13) && crlfOf(blobBytes(dir, entry.id))?.equals(bytes))
            continue;
        // A Git LFS pointer pins its file's bytes by their sha256 and size: the commit holds those bytes.
        if (lfsPointerOf(dir, entry.id) !== `${sha256} ${bytes.length}`)
            return `${file} differs from ${short}'s in the checkout`;
    }
    return null;
}
/** The `sha256 size` a Git LFS pointer blob names, or null when the blob is not one (read with git, small blobs only). */
function lfsPointerOf(dir, id) {
    const size = git(dir, ['cat-file', '-s', id]);
    if (size.status !== 0 || Number(size.stdout.trim()) > 1024)
        return null;
    const text = git(dir, ['cat-file', 'blob', id]);
    const m = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$/.exec(text.stdout);
    return text.status === 0 && m ? `${m[1]} ${m[2]}` : null;
}
/** A blob's bytes read with git, or null (too large to hold, or unreadable). */
function blobBytes(dir, id) {
    const r = (0,external_node_child_process_namespaceObject.spawnSync)('git', ['-C', dir, 'cat-file', 'blob', id], {
        maxBuffer: MAX_BYTES,
        env: gitEnv(),
    });
    return r.error || r.status !== 0 ? null : r.stdout;
}
/** The bytes as a checkout under eol=crlf writes them: each LF not already after a CR as CRLF. */
function crlfOf(bytes) {
    return bytes === null ? null : Buffer.from(bytes.toString('latin1').replace(/(?<!\r)\n/g, '\r\n'), 'latin1');
}
/** The bytes with each CRLF as LF (a checkout's line-ending conversion, undone). */
function lfOf(bytes) {
    if (!bytes.includes(13))
        return bytes;
    return Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
}
/**
 * What a verdict rests on, the files `checkoutDiffers` compares (paths relative to `cwd`): the
 * evidence with the sha256 judged, then the policy file (with the sha256 judged) and the trust files
 * its `trust:` section names when read from the checkout (not at a commit), and the trust files an entry's flags or inputs
 * name (absolute) that lie in the clone (a key the runner wrote outside it is the caller's word).
 */
function verdictRestsOn(cwd, inputs, policy, trustFiles, asked) {
    const out = new Map(inputs);
    const source = policy.source;
    const trust = source && source.commit === null ? policy.trust : null;
    const named = trust ? [...trust.trustedKeys, ...trust.trustedProducers, ...(trust.trustedRoot ? [trust.trustedRoot] : [])] : [];
    const top = cloneTop(cwd);
    const clone = top !== null ? canonical(top) : null;
    const given = trustFiles.filter((f) => clone !== null && discover_inside(clone, canonical(f))).map((f) => external_node_path_default().relative(cwd, f));
    // The policy read from disk is compared with the bytes judged (its sha256 is theirs: a file that is not UTF-8 is refused), never only its blob.
    if (source && source.commit === null && !out.has(source.path))
        out.set(source.path, source.sha256);
    const onDisk = source && source.commit === null ? named.map((p) => external_node_path_default().posix.normalize(p.path)) : [];
    for (const file of [...onDisk, ...given])
        if (!out.has(file))
            out.set(file, null);
    // What the gate was asked to read, whole: each input's file, folder or a glob's fixed folder, and the
    // policy's path unless it was read at a commit (a policy missing from the checkout is no policy).
    const whole = asked
        .map((i) => i.trim())
        .filter((i) => i !== '' && !i.startsWith('!'))
        .map((i) => external_node_path_default().relative(cwd, inputRoot(cwd, i).base) || '.')
        .filter((w) => w !== '..' && !w.startsWith(`..${(external_node_path_default()).sep}`));
    if (!source || source.commit === null)
        whole.push(source?.path ?? defaults_DEFAULTS.policy);
    return { files: out, whole };
}
/** A tree entry that is another repository (a submodule): not a file of this one. */
const SUBMODULE_MODE = '160000';
/** Whether a file is at the path (a link too: the comparison above says what is wrong with it), never a folder. */
function fileOnDisk(p) {
    try {
        const st = (0,external_node_fs_.lstatSync)(p);
        return st.isFile() || st.isSymbolicLink();
    }
    catch {
        return false;
    }
}
/** The top of the git clone holding `dir` (the root the tree's paths are relative to), or null outside a clone. */
function cloneTop(dir) {
    const top = git(dir, ['rev-parse', '--show-toplevel']);
    return top.status === 0 && top.stdout.trim() !== '' ? top.stdout.trim() : null;
}
/** Every regular file of a commit's tree (repository paths → blob id and size), read with git; why not. */
function treeAtCommit(cwd, commit) {
    const top = git(cwd, ['rev-parse', '--show-toplevel']);
    if (top.status !== 0)
        return { ok: false, reason: `not a git repository (${top.stderr.trim()})` };
    const r = git(top.stdout.trim(), ['ls-tree', '-r', '-l', '-z', '--full-tree', commit], TREE_BYTES);
    if (r.status !== 0)
        return { ok: false, reason: `git ls-tree ${commit.slice(0, 12)} failed: ${r.stderr.trim()}` };
    const out = new Map();
    for (const entry of r.stdout.split('\0')) {
        // "<mode> blob <id> <size>\t<path>"; links (120000) and submodules are not files.
        const m = /^100(?:644|755) blob ([0-9a-f]{40,64}) +(\d+)\t(.+)$/s.exec(entry);
        if (m?.[1] && m[2] && m[3])
            out.set(m[3], { id: m[1], size: Number(m[2]) });
    }
    return { ok: true, value: out };
}
/**
 * The files of the checkout under `cwd` that are present with the same bytes at the base (their
 * blob ids match the base tree's), as paths relative to `cwd` (how the report names run files).
 * In a git checkout the checked-out commit's tree gives each file's blob id, and `git status` the
 * files changed since (those are hashed): nothing else is read. Elsewhere each file whose size
 * matches is read and hashed.
 * @param root the repository root on disk (the base tree's paths are relative to it)
 */
function identicalAtBase(root, cwd, tree) {
    const head = treeAtCommit(root, 'HEAD');
    const dirty = head.ok ? changedInCheckout(root) : null;
    const out = new Set();
    for (const [rel, blob] of tree) {
        const abs = external_node_path_default().join(root, rel);
        const local = external_node_path_default().relative(cwd, abs);
        if (!discover_inside(cwd, abs))
            continue;
        const known = head.ok && dirty !== null && !dirty.has(rel) ? head.value.get(rel) : undefined;
        if (known !== undefined) {
            if (known.id === blob.id)
                out.add(local.split((external_node_path_default()).sep).join('/'));
            continue;
        }
        let st;
        try {
            st = (0,external_node_fs_.lstatSync)(abs);
        }
        catch {
            continue;
        }
        if (!st.isFile() || st.size !== blob.size)
            continue;
        if (blobId((0,external_node_fs_.readFileSync)(abs), blob.id.length) === blob.id)
            out.add(local.split((external_node_path_default()).sep).join('/'));
    }
    return out;
}
/**
 * The files of the checkout under `cwd` present with the same bytes at `commit` (identicalAtBase
 * against that commit's tree, the clone's top as the root), or why that cannot be told.
 */
function unchangedSince(cwd, commit) {
    const top = git(cwd, ['rev-parse', '--show-toplevel']);
    const tree = treeAtCommit(cwd, commit);
    if (top.status !== 0 || !tree.ok)
        return {
            ok: false,
            reason: `the files at ${commit.slice(0, 12)} could not be compared (${tree.ok ? top.stderr.trim() : tree.reason})`,
        };
    return { ok: true, value: identicalAtBase(top.stdout.trim(), cwd, tree.value) };
}
/** The files below `dir` (repository-relative paths, posix), links and folders' own entries left out. */
function filesBelow(root, dir) {
    const out = [];
    const stack = [dir];
    while (stack.length > 0) {
        const at = stack.pop();
        let entries = [];
        try {
            entries = (0,external_node_fs_.readdirSync)(external_node_path_default().join(root, at), { withFileTypes: true });
        }
        catch {
            continue;
        }
        for (const e of entries) {
            const rel = `${at}/${e.name}`;
            if (e.isDirectory())
                stack.push(rel);
            else if (e.isFile())
                out.push(rel);
        }
    }
    return out.sort();
}
/**
 * Why the pull request does not carry its policy alone, or null when it does: a run or export the gate
 * reads at the head (`read`, as the report names them) that the base does not hold with the same
 * bytes; a file of the base among the evidence (a name the gate reads, below `.assay/` or an input
 * `scopes` names) changed, deleted or renamed; a file below `.github/` other than the policy
 * changed, added or deleted (workflows, composite actions and trust files there name what is read and
 * how); a `.gitattributes` anywhere changed, added or deleted (its filters, `eol`, `ident` and
 * `working-tree-encoding` make the checked-out bytes differ from blobs whose ids match the base's:
 * a red team). The break-glass path applies only to such a pull request: one that also moves evidence, or
 * what is read of it, could make the failure it excuses.
 * @param identical the files present with the same bytes at the base, relative to the working directory (`identicalAtBase`)
 * @param identicalInRepo the same, relative to the repository root
 * @param scopes the inputs' positive paths and globs, relative to the repository root
 * @param policy the policy file, relative to the repository root
 */
function evidenceChangedSinceBase(root, tree, identical, identicalInRepo, read, scopes, policy) {
    for (const rel of read)
        if (!identical.has(rel))
            return `adds or changes ${rel}`;
    const tests = ['.assay', ...scopes].map((a) => {
        if (picomatch_default().scan(a).isGlob)
            return picomatch_default()(a, { dot: true });
        return (rel) => a === '' || rel === a || rel.startsWith(`${a}/`);
    });
    const github = (rel) => rel.startsWith('.github/') && rel !== policy;
    const attributes = (rel) => rel === ATTRIBUTES || rel.endsWith(`/${ATTRIBUTES}`);
    for (const rel of [...tree.keys()].sort()) {
        if (identicalInRepo.has(rel))
            continue;
        if (github(rel) || attributes(rel) || (formatOf(rel) !== null && tests.some((t) => t(rel))))
            return `changes, deletes or renames ${rel}`;
    }
    for (const rel of filesBelow(root, '.github'))
        if (github(rel) && !tree.has(rel))
            return `adds ${rel}`;
    // Attributes the checked-out commit adds (outside git, no attributes apply: identicalAtBase hashed the bytes).
    const head = treeAtCommit(root, 'HEAD');
    if (head.ok)
        for (const rel of [...head.value.keys()].sort())
            if (attributes(rel) && !tree.has(rel))
                return `adds ${rel}`;
    return null;
}
/** Git's attributes file: it changes how blobs become checked-out bytes. */
const ATTRIBUTES = '.gitattributes';
/** The tracked files the checkout changed since its commit (repository paths), or null when git cannot say. */
function changedInCheckout(root) {
    const r = git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames']);
    if (r.status !== 0)
        return null;
    const out = new Set();
    for (const entry of r.stdout.split('\0'))
        if (entry.length > 3)
            out.add(entry.slice(3));
    return out;
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
const STEP_SUMMARY_BYTES = 1024 * 1024 - 16 * 1024;

// EXTERNAL MODULE: ./src/report/text.ts
var report_text = __nccwpck_require__(5655);
;// CONCATENATED MODULE: ./src/report/annotations.ts
/**
 * Annotations: one per call at its decision line (earned level, claimed level, tool, and the reason
 * when something failed there), plus one per finding that is not about a call (records, invalid
 * artifacts). Shared by the Checks API reporter and the workflow-command reporter; most important first.
 */






/** The Checks API's limits, applied to every annotation whichever way it is sent. */
const TITLE_MAX = CHECKS_API.title;
const MESSAGE_MAX_BYTES = CHECKS_API.messageBytes;
const LEVEL = (s) => severity/* SEVERITY_TABLE */.ps[s].annotation;
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
        const worst = fs.reduce((acc, f) => ((0,severity/* annotationRank */.Uo)(LEVEL(f.severity)) < (0,severity/* annotationRank */.Uo)(acc) ? LEVEL(f.severity) : acc), 'notice');
        const p = place(c.artifact, c.line, c.column, c.member);
        const claimed = c.claimed_level === c.level ? '' : ` (claimed ${c.claimed_level})`;
        const required = c.required_level === null ? '' : `; required: ${c.required_level}`;
        const lines = [
            `${p.inside}Earned level: ${(0,report_text/* rung */.$O)(c.level)}; claimed: ${(0,report_text/* rung */.$O)(c.claimed_level)}${required}; tool: ${(0,report_text/* visible */.RK)((0,core_text/* clip */.$Q)(c.tool ?? '(none)', 1000))}.`,
        ];
        // A finding about the shortfall says why the level was not reached; the level's own reason
        // would repeat it and add what does not concern the claim.
        if (!fs.some((f) => 'shortfall' in core_findings/* FINDINGS */.TG[f.code]))
            lines.push(`Why: ${(0,report_text/* visible */.RK)(c.reason)}`);
        for (const f of fs)
            lines.push(`${f.code}: ${(0,report_text/* visible */.RK)(f.message)}`);
        out.push({
            path: p.path,
            line: p.line,
            column: p.column,
            level: worst,
            title: (0,core_text/* clip */.$Q)(`${c.level ?? 'no rung'}${c.level === null ? '' : claimed} · ${(0,report_text/* visible */.RK)(c.tool ?? 'decision ' + c.index)}`, TITLE_MAX),
            message: (0,report_text/* clipBytes */.Wp)(lines.join('\n'), MESSAGE_MAX_BYTES),
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
                message: (0,report_text/* clipBytes */.Wp)(`${(0,report_text/* visible */.RK)(where)}: ${(0,report_text/* visible */.RK)(f.message)}`, MESSAGE_MAX_BYTES),
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
            message: (0,report_text/* clipBytes */.Wp)(p.inside + (0,report_text/* visible */.RK)(f.message), MESSAGE_MAX_BYTES),
        });
    }
    const byPath = (a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
    const kept = scope === 'all' ? out : out.filter((a) => a.level !== 'notice');
    // A change of the policy comes first at its level: a fork's ten per-call notices must not hide it (docs/policy.md §11).
    const pinned = (a) => (a.title === 'policy_changed' ? 0 : 1);
    return kept.sort((a, b) => (0,severity/* annotationRank */.Uo)(a.level) - (0,severity/* annotationRank */.Uo)(b.level) || pinned(a) - pinned(b) || byPath(a.path, b.path) || a.line - b.line);
}

;// CONCATENATED MODULE: ./src/report/check-run.ts
/**
 * Annotations and the summary through the Checks API: on the job's own check run when its id is
 * given, else on a check run this action creates. 50 annotations per request (create, then update
 * to append); titles, messages and texts trimmed to the API's limits with a visible marker.
 */




const ANNOTATIONS_PER_REQUEST = CHECKS_API.annotationsPerRequest;
/** An id as the API gave it (a number, or digits), as digits; null when it is neither. */
const idOf = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : typeof v === 'string' && /^[1-9]\d{0,18}$/.test(v) ? v : null;
const check_run_member = (data, key) => typeof data === 'object' && data !== null && key in data ? data[key] : undefined;
/**
 * The check run this job already created, when a create's answer was lost (a 5xx or no answer after
 * GitHub may have made it): found by its name on the head commit with the `external_id` this job gave
 * it (a random id of this publication: another job's run of the same name, completed the same second
 * with another conclusion, is never taken for it) and the completion time. Null: none.
 */
async function findCreated(api, target, externalId) {
    const q = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/commits/${encodeURIComponent(target.headSha)}/check-runs?check_name=${encodeURIComponent(target.name)}&filter=latest`;
    let res;
    try {
        res = await api.request('GET', q);
    }
    catch {
        return null;
    }
    const runs = check_run_member(res.data, 'check_runs');
    if (res.status !== 200 || !Array.isArray(runs))
        return null;
    for (const r of runs) {
        const id = idOf(check_run_member(r, 'id'));
        const completed = check_run_member(r, 'completed_at');
        const same = typeof completed === 'string' && Math.floor(Date.parse(completed) / 1000) === Math.floor(target.completedAt.getTime() / 1000);
        if (id === null || check_run_member(r, 'name') !== target.name || check_run_member(r, 'external_id') !== externalId || !same)
            continue;
        const html = check_run_member(r, 'html_url');
        return { id, url: typeof html === 'string' && /^https?:\/\//.test(html) ? html : null };
    }
    return null;
}
const toApi = (a) => ({
    path: a.path,
    start_line: a.line,
    end_line: a.line,
    ...(a.column !== null ? { start_column: a.column, end_column: a.column } : {}),
    annotation_level: a.level,
    title: (0,core_text/* clip */.$Q)(a.title, CHECKS_API.title, '…'),
    message: (0,report_text/* clipBytes */.Wp)(a.message, CHECKS_API.messageBytes),
});
async function publishCheckRun(api, target, output, annotations) {
    const base = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/check-runs`;
    const out = { title: (0,core_text/* clip */.$Q)(output.title, CHECKS_API.title, '…'), summary: (0,report_text/* clipBytes */.Wp)(output.summary, CHECKS_API.summaryBytes) };
    // The API needs a file for every annotation; findings about inputs are in the summary instead.
    const located = annotations.filter((a) => a.path !== null);
    const batches = [];
    for (let i = 0; i < located.length; i += ANNOTATIONS_PER_REQUEST)
        batches.push(located.slice(i, i + ANNOTATIONS_PER_REQUEST));
    if (batches.length === 0)
        batches.push([]);
    let id = target.checkRunId;
    let url = null;
    let requests = 0;
    let posted = 0;
    const failed = (status, message) => ({
        ok: false,
        reason: { status, message, posted, unposted: located.slice(posted), run: id === null ? null : { id, url } },
    });
    // A create that failed with no run found by the lookup is sent once more before falling back.
    let retried = false;
    const externalId = `receipt-gate:${(0,external_node_crypto_.randomUUID)()}`;
    for (let b = 0; b < batches.length; b++) {
        const batch = batches[b] ?? [];
        const body = { output: { ...out, annotations: batch.map(toApi) } };
        let res = null;
        let lost = '';
        try {
            if (id === null) {
                const create = {
                    name: target.name,
                    head_sha: target.headSha,
                    status: 'completed',
                    conclusion: target.conclusion,
                    completed_at: target.completedAt.toISOString(),
                    external_id: externalId,
                    ...body,
                };
                res = await api.request('POST', base, create, { once: true });
            }
            else {
                res = await api.request('PATCH', `${base}/${id}`, body);
            }
        }
        catch (error) {
            lost = error instanceof Error ? error.message : String(error);
        }
        requests++;
        // A create whose answer was lost may have made the run: find it before creating another.
        if (id === null && (res === null || res.status >= 500)) {
            const found = await findCreated(api, target, externalId);
            requests++;
            if (found) {
                id = found.id;
                url = found.url;
                posted += batch.length;
                continue;
            }
            // GitHub made no run: creating it again cannot make a second one.
            if (!retried) {
                retried = true;
                b--;
                continue;
            }
        }
        if (res === null)
            return failed(null, lost);
        if (res.status < 200 || res.status >= 300) {
            const message = check_run_member(res.data, 'message');
            return failed(res.status, message === undefined ? `HTTP ${res.status}` : String(message));
        }
        const html = check_run_member(res.data, 'html_url');
        if (typeof html === 'string' && /^https?:\/\//.test(html))
            url = html;
        if (id === null) {
            const got = idOf(check_run_member(res.data, 'id'));
            if (got === null)
                return failed(res.status, 'the API did not return a check run id');
            id = got;
        }
        posted += batch.length;
    }
    if (id === null)
        return failed(null, 'no check run was written');
    return { ok: true, value: { id, url, requests } };
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: ./src/report/output.ts
var output = __nccwpck_require__(9045);
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
/**
 * JSON text with `##[` written `\u0023#[` inside its strings (the same value): the runner reads that
 * form as a command anywhere in a line, and the report goes to a `run:` step's output with `--format
 * json`. `##[` occurs only inside strings in JSON.
 */
const inertJson = (text) => (text.includes('##[') ? text.replaceAll('##[', '\\u0023#[') : text);
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
                yield inertJson(parts.join(''));
                parts = [];
                size = 0;
            }
        }
        parts.push(items.length > 0 ? '\n  ]' : ']');
    }
    if (report.policy_change)
        parts.push(`,\n  "policy_change": ${JSON.stringify(report.policy_change)}`);
    parts.push('\n}\n');
    yield inertJson(parts.join(''));
}
/** The report's text in its pieces, in order: written one after another, never made one string (for 100 000 calls, 80 MB copied once more and encoded at once). */
const jsonPieces = (report) => [...jsonChunks(report)];
const renderJson = (report) => jsonPieces(report).join('');
/** The report's pieces and the sha256 digest of their bytes: a text written beside a verdict, never joined (a report past V8's longest string would throw). */
function digestedPieces(report) {
    const pieces = jsonPieces(report);
    const hash = (0,external_node_crypto_.createHash)('sha256');
    for (const piece of pieces)
        hash.update(piece, 'utf8');
    return { pieces, digest: `sha256:${hash.digest('hex')}` };
}
/** Chunks being written at once: the next is rendered while the disk takes the last ones. */
const IN_FLIGHT = 4;
/** `bytes` at `position`, or (null) where the output stands: a FIFO or the process's own output cannot seek. */
async function writeAt(fh, bytes, position) {
    let off = 0;
    while (off < bytes.length) {
        const n = (await fh.write(bytes, off, bytes.length - off, position === null ? null : position + off)).bytesWritten;
        if (n <= 0)
            throw new Error(`a write took none of ${bytes.length - off} bytes (is the disk full?)`);
        off += n;
    }
}
/**
 * Write the report to `file` in chunks, each at its own offset while the next is rendered, never
 * through a link at `file` (report/output.ts); returns the sha256 digest of exactly the bytes written. A failed write rejects (after every write has
 * ended, so none is left running).
 */
async function writeJson(report, file) {
    const hash = (0,external_node_crypto_.createHash)('sha256');
    await writeJsonHashing(report, file, hash);
    return `sha256:${hash.digest('hex')}`;
}
/** The same, when nothing asks for the digest (the CLI's `--output` without a verdict): 80 MB not hashed for nobody. */
const writeJsonOnly = (report, file) => writeJsonHashing(report, file, null);
async function writeJsonHashing(report, file, hash) {
    const made = (0,output/* makeDirs */.X2)(external_node_path_default().dirname(file));
    // An output written in place (a FIFO, /dev/stdout into a pipe) takes its chunks one after another, in order;
    // any other is written whole beside its place and renamed over it (a write that fails leaves nothing, never a report cut short).
    const inPlace = (0,output/* outputPlace */.hb)(file) === 'in place';
    const tmp = inPlace ? null : (0,output/* tempBeside */.p8)(file);
    const fh = await (tmp === null ? (0,promises_.open)(file, 'w') : (0,promises_.open)(tmp, 'wx', 0o644));
    const writes = [];
    try {
        try {
            let position = 0;
            for (const chunk of jsonChunks(report)) {
                const bytes = Buffer.from(chunk, 'utf8');
                hash?.update(bytes);
                const w = inPlace ? writeAt(fh, bytes, null) : writeAt(fh, bytes, position);
                // Handled here so a failure is never an unhandled rejection while the next chunk is rendered; awaited below.
                w.catch(() => { });
                writes.push(w);
                position += bytes.length;
                if (writes.length >= (inPlace ? 1 : IN_FLIGHT))
                    await writes.shift();
            }
            await Promise.all(writes);
        }
        finally {
            await Promise.allSettled(writes);
            await fh.close();
        }
        // The rename replaces a link at `file`, never writing through it.
        if (tmp !== null)
            await (0,promises_.rename)(tmp, file);
    }
    catch (error) {
        if (tmp !== null)
            await (0,promises_.rm)(tmp, { force: true });
        (0,output/* removeDirs */.Xr)(made);
        throw error;
    }
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
        const uri = (0,report_text/* uriPath */.kq)(repoPath(prefix, finding.file));
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
        const uri = (0,report_text/* uriPath */.kq)(repoPath(prefix, call.artifact));
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

;// CONCATENATED MODULE: ./src/report/summary.ts
/**
 * The job summary (Markdown): result banner, totals, failing findings first, then every call with a
 * link to its line at the head commit. Kept under a byte budget (GitHub's limit is 1 MiB per step);
 * when rows must be cut, a line says how many and where the full report is.
 */







const SUMMARY_BUDGET = STEP_SUMMARY_BYTES;
/**
 * Untrusted text as inert Markdown: no markup, no HTML, no @mentions, no line breaks, no links. GitHub
 * links bare URLs (`:` written as an entity breaks `https://`), e-mail addresses (`@`) and `www.`
 * names: the dot after `www` is written as an entity too (a red team: evidence text became a link).
 */
function md(text) {
    return (0,report_text/* visible */.RK)(text)
        .replace(/[\\`*_{}[\]()#+!|<>&~@:$]/g, (c) => `&#${c.charCodeAt(0)};`)
        .replace(/(www)\./gi, '$1&#46;');
}
/** A place as a link to its line; a file read at another commit (a pull request's base) links there and says so. */
function summary_link(ctx, file, line, member, commit) {
    const path = repoPath(ctx.prefix, file);
    const label = md(`${member ? `${path}!${member}:${line}` : `${path}:${line}`}${commit ? ` at ${commit.slice(0, 12)}` : ''}`);
    if (!ctx.blobBase)
        return label;
    const blob = commit ? ctx.blobBase.replace(/\/blob\/[^/]+$/, `/blob/${encodeURIComponent(commit)}`) : ctx.blobBase;
    const url = `${blob}/${(0,report_text/* uriPath */.kq)(path)}${member ? '' : `#L${line}`}`;
    return `[${label}](${url})`;
}
/** What was verified, where: the commit, the inputs as given, the report's digest. */
function bannerLines(ctx, passed) {
    const parts = [];
    // md() makes every character inert, so nothing here goes in a code span (entities would show).
    if (ctx.commit && ctx.merge) {
        parts.push(`the merge of head ${md(ctx.merge.head.slice(0, 40))} into base ${md(ctx.merge.base.slice(0, 40))}, commit ${md(ctx.commit.slice(0, 40))}`);
    }
    else if (ctx.commit)
        parts.push(`commit ${md(ctx.commit.slice(0, 40))}`);
    if (ctx.inputs)
        parts.push(`runs ${ctx.inputs.runs.map(md).join(', ')}`, `audit ${ctx.inputs.audit.map(md).join(', ')}`);
    if (ctx.reportDigest)
        parts.push(`report ${md(ctx.reportDigest)}`);
    // A failed gate verified nothing: it checked these and found what failed.
    return parts.length > 0 ? [`${passed ? 'Verified' : 'Checked'} ${parts.join(' · ')}.`, ''] : [];
}
/** The policy in effect, in the summary's head: a policy file per rule, its exceptions expiring soon, its grandfathered runs, a pull request's change. */
function policyLines(report) {
    const { rules, source } = report.policy;
    const totals = report.totals;
    // A call its provider's export covered with no entry fails whatever its rule (effect_not_logged): never "every call meets it" (a red team).
    const notLogged = totals.effect_not_logged > 0 ? ` · **${totals.effect_not_logged} call(s) not logged by the provider**` : '';
    const verdict = `${totals.policy_unmet === 0 && totals.effect_not_logged === 0 ? 'every call meets it' : `**${totals.policy_unmet} call(s) below it**`}${notLogged}${totals.policy_warned > 0 ? ` · ${totals.policy_warned} call(s) would fail under enforce (mode warn)` : ''}`;
    const change = report.policy_change
        ? [
            `This pull request changes the policy (${md(report.policy_change.path)}); after merge: ${md(changesText(report.policy_change.changes, PULL_CHANGE))}.`,
            '',
        ]
        : [];
    if (!source) {
        if (rules.length === 0)
            return ['Policy: none (honesty only: no level is required).', '', ...change];
        return [`Policy: ${rules.map((r) => `\`${String(r['selector'])}=${String(r['level'])}\``).join(', ')} · ${verdict}.`, '', ...change];
    }
    const out = [
        `Policy: ${md(source.path)}${source.commit ? ` at ${md(source.commit.slice(0, 12))}` : ''} · default ${md(String(report.policy.default))} · ${verdict}.`,
        '',
    ];
    for (const e of ruleEffects(report))
        out.push(`- ${md(e.rule)}: ${e.matched} call(s), ${e.met} met, ${e.unmet} unmet, ${e.warned} warned, ${e.pending} pending, ${e.excepted} excepted`);
    const expiring = report.findings.filter((f) => f.code === 'exception_expiring' || f.code === 'exception_expired');
    for (const f of expiring.slice(0, 20))
        out.push(`- ${f.code === 'exception_expired' ? '❌' : '⚠️'} ${md((0,core_text/* clip */.$Q)(f.message, 300))}`);
    if (totals.grandfathered > 0) {
        const runs = new Set(report.calls.filter((c) => c.grandfathered).map((c) => c.artifact)).size;
        out.push(`- ${totals.grandfathered} call(s) grandfathered in ${runs} run(s) (judged for honesty only)`);
    }
    return [...out, '', ...change];
}
/** What the exports covered (docs/coverage.md): the statements per provider and scope, the calls pending or never logged, the gaps. */
function coverageLines(report) {
    const { coverage, coverage_gaps: gaps, totals } = report;
    if (coverage.length === 0)
        return [];
    const usable = coverage.filter((s) => s.usable);
    const scopes = new Map();
    for (const s of usable) {
        const key = `${s.provider} ${s.export} (${s.repos ? s.repos.join(', ') : (s.owner ?? (s.provider === 'github' ? 'no organisation or repository: it covers no call' : 'the whole log'))})`;
        const seen = scopes.get(key);
        if (!seen)
            scopes.set(key, { count: 1, since: s.since, until: s.until });
        else {
            seen.count++;
            if (s.since < seen.since)
                seen.since = s.since;
            if (s.until > seen.until)
                seen.until = s.until;
        }
    }
    const out = [
        `Coverage: ${usable.length} export statement(s)${coverage.length > usable.length ? ` (${coverage.length - usable.length} not counted: untrusted or a second copy)` : ''} · ${totals.pending} call(s) pending · ${totals.effect_not_logged === 0 ? 'no call the provider failed to log' : `**${totals.effect_not_logged} call(s) the provider never logged**`}.`,
        '',
    ];
    for (const [scope, s] of scopes)
        out.push(`- ${md(scope)}: ${s.count} statement(s), ${md(s.since)} to ${md(s.until)}`);
    for (const g of gaps.slice(0, 20))
        out.push(`- ⚠️ no ${md(g.provider)} export covers ${md(g.from)}–${md(g.to)} (${md(g.scope)}): calls in it are not checked against the log`);
    if (gaps.length > 20)
        out.push(`- … and ${gaps.length - 20} more gap(s) (coverage_gaps in the JSON report)`);
    return [...out, ''];
}
/** Signed records read with no trusted key, and a trust rollout's count: said beside the record counts, not only among the findings. */
function uncheckedLine(report) {
    const f = report.findings.find((x) => x.code === 'signatures_unchecked');
    const unchecked = f ? ` **Signatures not checked:** ${md(f.message)}.` : '';
    if (report.policy.trust_mode !== 'warn')
        return unchecked;
    const records = report.findings.filter((x) => x.code === 'record_untrusted').length;
    const runs = report.findings.filter((x) => x.code === 'run_unattested').length;
    return `${unchecked} **Trust mode warn:** ${records} record(s) / ${runs} run(s) would fail under enforce.`;
}
/** The counts: levels, records, policy, and each run's producer when any run has one. */
function totalsLines(report) {
    const totals = report.totals;
    const signers = report.policy.trusted_signers;
    return [
        `${totals.calls} call(s) in ${totals.artifacts} run(s) · ${totals.records} audit record(s) · ${(0,report_text/* findingCounts */.s_)(totals)}`,
        '',
        '| level | calls |',
        '|---|---:|',
        ...vocabulary/* LEVELS_DESCENDING */.lS.map((l) => `| ${vocabulary/* LEVEL_TABLE */.iH[l].icon} ${l} | ${totals[l]} |`),
        `| — no rung (asserts no side effect) | ${totals.no_effect} |`,
        '',
        `Audit records: ${(0,report_text/* recordCounts */.uk)(totals)}.${signers.length > 0 ? ` Trusted signers: ${signers.map((k) => `\`${k.slice(0, 19)}…\``).join(', ')}.` : ''}${uncheckedLine(report)}`,
        '',
        ...policyLines(report),
        ...coverageLines(report),
        ...((0,report_text/* producerLine */.nB)(report)
            ? [
                `Runs: ${(0,report_text/* producerLine */.nB)(report)}:`,
                '',
                ...report.runs.map((r) => `- ${md((0,core_text/* clip */.$Q)(r.artifact, 200))}: ${md((0,report_text/* runProducer */.gT)(r.producer))}`),
                '',
            ]
            : []),
    ];
}
/** One row per call: calls below their required level first, then calls with other failures (both marked), then the rest. */
function callRows(report, ctx) {
    const policy = report.policy.rules.length > 0;
    return (0,report_text/* failingFirst */.zA)(report.calls).map(({ call: c, fails }) => {
        const mark = fails ? '❌ ' : '';
        const level = c.level === null ? (0,report_text/* rung */.$O)(null) : `${vocabulary/* LEVEL_TABLE */.iH[c.level].icon} ${c.level}`;
        return `| ${mark}${level} | ${(0,report_text/* rung */.$O)(c.claimed_level)} |${policy ? ` ${(0,report_text/* rung */.$O)(c.required_level)} |` : ''} ${md((0,core_text/* clip */.$Q)(c.tool ?? '(none)', 100))} | ${summary_link(ctx, c.artifact, c.line, c.member)} |`;
    });
}
/** Markdown within a byte budget: whole blocks, and sections cut row by row, counting what was left out. */
class Budgeted {
    budget;
    parts = [];
    trimmed = 0;
    used = 0;
    static RESERVE = 1024;
    constructor(budget) {
        this.budget = budget;
    }
    /** Lines as they come while they fit; the rest counted as left out (the totals' coverage and run lists grow with the input). */
    put(lines) {
        for (const [i, line] of lines.entries()) {
            if (!this.fits(`${line}\n`)) {
                this.trimmed += lines.length - i;
                return;
            }
            this.add(`${line}\n`);
        }
    }
    section(heading, rows) {
        if (rows.length === 0)
            return;
        const head = `${heading.join('\n')}\n`;
        if (!this.fits(head)) {
            this.trimmed += rows.length;
            return;
        }
        this.add(head);
        for (const [i, r] of rows.entries()) {
            if (!this.fits(`${r}\n`)) {
                this.trimmed += rows.length - i;
                break;
            }
            this.add(`${r}\n`);
        }
        this.parts.push('\n');
    }
    fits(text) {
        return this.used + Buffer.byteLength(text) + Budgeted.RESERVE <= this.budget;
    }
    add(text) {
        this.parts.push(text);
        this.used += Buffer.byteLength(text);
    }
}
function renderSummary(report, ctx) {
    const totals = report.totals;
    const verdict = report.ok ? '## ✅ receipt-gate: passed' : '## ❌ receipt-gate: failed';
    // A finding about an input names the input, never a link to a file that is not there.
    const row = (f) => `- ${severity/* SEVERITY_TABLE */.ps[f.severity].icon} **${f.code}** ${f.input !== undefined ? md(f.input) : summary_link(ctx, f.file, f.line, f.member, f.commit)}: ${md((0,core_text/* clip */.$Q)(f.message, 2000))}`;
    // A failed gate leads with what failed; the totals and everything else follow.
    const failed = report.ok ? [] : report.findings.filter((f) => f.severity === 'error');
    const rest = report.ok ? report.findings : report.findings.filter((f) => f.severity !== 'error');
    const policy = report.policy.rules.length > 0;
    const out = new Budgeted(ctx.budgetBytes);
    out.put([`${verdict} · ${(0,report_text/* weakestRung */.ho)(totals)}`, '', ...bannerLines(ctx, report.ok)]);
    out.section(['### What failed', ''], failed.map(row));
    out.put(totalsLines(report));
    out.section(['### Findings', ''], rest.map(row));
    out.section([
        '### Calls',
        '',
        policy ? '| earned | claimed | required | tool | location |' : '| earned | claimed | tool | location |',
        policy ? '|---|---|---|---|---|' : '|---|---|---|---|',
    ], callRows(report, ctx));
    if (out.trimmed > 0) {
        const where = ctx.reportFile ? `in \`${md(ctx.reportFile)}\` (the \`report-file\` output)` : 'in the report file';
        out.parts.push(`> Summary trimmed: ${out.trimmed} more row(s) not shown. The full report is ${where}.\n`);
    }
    return { markdown: out.parts.join(''), trimmed: out.trimmed };
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
/**
 * The RECEIPTS_* levels of a verdict (SLSA reserves SLSA_*), each claimed only when the report shows
 * it held for every call, record or run: a rule in mode warn that fell short, a requirement still
 * waiting for its export, a call an exception excuses or one of a grandfathered run is no rule met; trust in mode warn, a record no trusted signer vouched for
 * (unsigned, untrusted, or a grandfathered file's, whose trust was not asked) or a run no trusted
 * producer attested is no signed record or attested run.
 */
function verifiedLevels(report) {
    if (!report.ok)
        return [];
    const t = report.totals;
    const w = t.weakest_level;
    const levels = [w === null ? 'RECEIPTS_NO_SIDE_EFFECTS' : `RECEIPTS_WEAKEST_${w.toUpperCase()}`];
    // A call verified by a grandfathered file's record (trust not asked) met its rule only by the grandfathering.
    const grandfatheredRecord = report.records.some((r) => r.trust_not_asked === true && r.outcome === 'bound');
    // Each level names what was in play: a rule that applied to no call, no record, no run vouches for nothing (a red team: an empty set passed every()).
    if (
    // A rule applied to a call, or a default above honesty did (a default of asserted asks honesty only; `default: verified` alone is a policy).
    report.calls.some((c) => c.rule !== null || (c.required_level !== null && c.required_level !== 'asserted')) &&
        t.policy_unmet === 0 &&
        t.policy_warned === 0 &&
        t.pending === 0 &&
        t.excepted === 0 &&
        t.grandfathered === 0 &&
        !grandfatheredRecord)
        levels.push('RECEIPTS_POLICY_MET');
    const enforced = report.policy.trust_mode !== 'warn';
    // Keys or identities: either set in force means every record (every run) had to be vouched for.
    const ids = report.policy.identities;
    const signers = new Set(report.policy.trusted_signers);
    const vouched = (r) => r.untrusted === null && r.trust_not_asked !== true && (r.trusted_by !== undefined || (r.signer !== null && signers.has(r.signer)));
    if (enforced &&
        (signers.size > 0 || (ids?.trusted_signer_identities.length ?? 0) > 0) &&
        report.records.length > 0 &&
        report.records.every(vouched) &&
        report.coverage.every((c) => c.untrusted_code === null))
        levels.push('RECEIPTS_SIGNED_RECORDS');
    if (enforced &&
        (report.policy.trusted_producers.length > 0 || (ids?.trusted_producer_identities.length ?? 0) > 0) &&
        report.runs.length > 0 &&
        report.runs.every((r) => r.producer?.checked === true))
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
    return discover_inside(workspace, reportFile) ? external_node_path_default().relative(workspace, reportFile).split((external_node_path_default()).sep).join('/') : external_node_path_default().basename(reportFile);
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

;// CONCATENATED MODULE: ./src/report/workflow-commands.ts
/**
 * Annotations as workflow commands (fork PRs, read-only tokens, `annotations: workflow-commands`,
 * or whatever the Checks API did not take). GitHub shows at most WORKFLOW_COMMANDS_PER_LEVEL error,
 * warning and notice annotations per step, counting the step's own lines (the failure message is
 * an error, a fallback warning is a warning): the caller reserves those, the most severe are
 * written first, and one notice (kept room for) says how many more the summary and report hold.
 */


/** @returns how many annotations were left out */
function emitWorkflowCommands(annotations, sink, reserved = { failure: 0, warning: 0 }) {
    // The notice budget keeps one line for the count of what was left out.
    const room = {
        failure: Math.max(0, WORKFLOW_COMMANDS_PER_LEVEL - reserved.failure),
        warning: Math.max(0, WORKFLOW_COMMANDS_PER_LEVEL - reserved.warning),
        notice: WORKFLOW_COMMANDS_PER_LEVEL - 1,
    };
    const shown = { failure: 0, warning: 0, notice: 0 };
    let hidden = 0;
    const ordered = [...annotations].sort((a, b) => (0,severity/* annotationRank */.Uo)(a.level) - (0,severity/* annotationRank */.Uo)(b.level));
    for (const a of ordered) {
        if (shown[a.level] >= room[a.level]) {
            hidden++;
            continue;
        }
        shown[a.level]++;
        const props = a.path === null
            ? { title: a.title }
            : { title: a.title, file: a.path, startLine: a.line, ...(a.column !== null ? { startColumn: a.column } : {}) };
        if (a.level === 'failure')
            sink.error(a.message, props);
        else if (a.level === 'warning')
            sink.warning(a.message, props);
        else
            sink.notice(a.message, props);
    }
    if (hidden > 0) {
        sink.notice(`${hidden} more annotation(s) not shown: GitHub shows at most ${WORKFLOW_COMMANDS_PER_LEVEL} error, ${WORKFLOW_COMMANDS_PER_LEVEL} warning and ${WORKFLOW_COMMANDS_PER_LEVEL} notice annotations per step. The job summary and the report file list every call and finding.`, { title: 'receipt-gate: more annotations' });
    }
    return hidden;
}

;// CONCATENATED MODULE: ./src/trust/keys.ts
/**
 * Trusted keys: the Ed25519 public keys (PEM SPKI blocks) whose signatures the gate accepts, each
 * parsed once, by key_id. Parsing returns a reason instead of throwing, so each entry can name the
 * input that was wrong. PEM text is scanned once, left to right (no backtracking pattern), and is
 * refused past MAX_KEY_TEXT_BYTES.
 */



/** key_id: sha256 of the public key's SubjectPublicKeyInfo DER. */
function keys_keyIdOf(publicKey) {
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
    return new Map(keys.map((k) => [keys_keyIdOf(k), k]));
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
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return {
        privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        publicPem: publicKey.export({ type: 'spki', format: 'pem' }),
        keyId: keyIdOf(publicKey),
    };
}
/** Now, as a `signed_at` value (whole seconds). */
const signedAtNow = (now) => utcSeconds(now);
/** The signature member for payload P, signed with an Ed25519 private key (`type`: a record's payload type, or a coverage statement's). */
function signPayload(payload, key, signedAt, type = PAYLOAD_TYPE) {
    const bytes = Buffer.from(payload, 'utf8');
    return {
        version: 1,
        algorithm: 'ed25519',
        payload_type: type,
        signed_payload_digest: sha256Digest(bytes),
        key_id: keyIdOf(key.publicKey),
        signature: edSign(null, pae(type, bytes), key.privateKey).toString('base64'),
        signed_at: signedAt,
    };
}
/**
 * A record as one NDJSON line with its signature: P is the canonical JSON of a non-empty object, so
 * the signature member goes in before its closing brace (the parsed record is never copied).
 */
function signedLine(payload, key, signedAt, type = PAYLOAD_TYPE) {
    return `${payload.slice(0, -1)},"signature":${JSON.stringify(signPayload(payload, key, signedAt, type))}}`;
}
/** A DSSE envelope (one compact JSON line) over P with the given payload type, signed with the key. */
function envelopeLine(payloadType, payload, key) {
    const sig = (0,external_node_crypto_.sign)(null, signature_pae(payloadType, payload), key.privateKey).toString('base64');
    return JSON.stringify({
        payload: Buffer.from(payload).toString('base64'),
        payloadType,
        signatures: [{ keyid: keys_keyIdOf(key.publicKey), sig }],
    });
}

;// CONCATENATED MODULE: ./src/tools/write.ts
/** How every tool writes a file: whole or not at all, never over a file it must not replace. */



const lstatOrNull = (file) => {
    try {
        return (0,external_node_fs_.lstatSync)(file);
    }
    catch {
        return null;
    }
};
/**
 * Every byte of `text` at the file's position: a write may take fewer bytes than it is given without
 * an error (a disk that fills, a file-size limit), and the next one then says why; one that takes
 * none is an error itself. Never a file cut short that is then renamed into place.
 */
function writeFully(fd, text) {
    const bytes = Buffer.from(text, 'utf8');
    for (let off = 0; off < bytes.length;) {
        const n = (0,external_node_fs_.writeSync)(fd, bytes, off, bytes.length - off);
        if (n <= 0)
            throw new Error(`a write took none of ${bytes.length - off} bytes (is the disk full?)`);
        off += n;
    }
}
/**
 * `text` (or its chunks, written as they come) in a new temporary file beside `file`: its path. A
 * short name of its own (a legal name of 255 bytes has no room for a longer one); `made` collects the
 * folders made for it.
 */
function writeTemp(file, text, made = []) {
    for (const d of (0,output/* makeDirs */.X2)(external_node_path_default().dirname(file)))
        made.push(d);
    const tmp = (0,output/* tempBeside */.p8)(file);
    const fd = (0,external_node_fs_.openSync)(tmp, 'wx', 0o644);
    try {
        if (typeof text === 'string')
            writeFully(fd, text);
        else
            for (const chunk of text)
                writeFully(fd, chunk);
    }
    catch (error) {
        (0,external_node_fs_.closeSync)(fd);
        (0,external_node_fs_.rmSync)(tmp, { force: true });
        throw error;
    }
    (0,external_node_fs_.closeSync)(fd);
    return tmp;
}
/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename (which replaces a link
 * at `file`, never writing through it). A FIFO, a character device or this process's own output
 * (`/dev/stdout`) is written to directly: nothing there can be replaced whole (report/output.ts).
 */
function writeWhole(file, text) {
    writeAllWhole([[file, text]]);
}
/** Write a text's pieces to `file` in place (a FIFO, a device, this process's own output). */
function writeInPlace(file, text) {
    if (typeof text === 'string') {
        (0,external_node_fs_.writeFileSync)(file, text);
        return;
    }
    const fd = (0,external_node_fs_.openSync)(file, 'w');
    try {
        for (const chunk of text)
            writeFully(fd, chunk);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/** A write of `writeAllWhole` that failed: the file it failed at (what a message names), and why. */
class FileWriteError extends Error {
    file;
    reason;
    constructor(file, reason) {
        super(reason instanceof Error ? reason.message : String(reason));
        this.file = file;
        this.reason = reason;
    }
}
/**
 * Write every file whole, all of them or none: each staged in a temporary file beside it, then the
 * outputs that are written in place (a FIFO, a device, this process's own output: nothing there can
 * be put back), then every staged file renamed over its place, what was replaced put back if a rename
 * fails. A failure removes every temporary file and the folders made for them, and names the file it
 * failed at.
 */
function writeAllWhole(files) {
    const inPlace = files.map(([file]) => (0,output/* outputPlace */.hb)(file) === 'in place');
    const staged = [];
    const made = [];
    const discard = () => {
        for (const { tmp } of staged) {
            (0,external_node_fs_.rmSync)(tmp, { force: true });
            (0,external_node_fs_.rmSync)(`${tmp}.kept`, { force: true });
        }
        (0,output/* removeDirs */.Xr)(made);
    };
    let at = '';
    try {
        files.forEach(([file, text], i) => {
            at = file;
            if (!inPlace[i])
                staged.push({ file, tmp: writeTemp(file, text, made) });
        });
        // Before any rename: one that fails leaves none of the files renamed into place.
        files.forEach(([file, text], i) => {
            at = file;
            if (inPlace[i])
                writeInPlace(file, text);
        });
    }
    catch (error) {
        discard();
        throw new FileWriteError(at, error);
    }
    const done = [];
    try {
        for (const { file, tmp } of staged) {
            at = file;
            const before = lstatOrNull(file);
            // Kept aside only when a later file could fail after this one is in place.
            const kept = staged.length > 1 && before?.isFile() ? `${tmp}.kept` : null;
            if (kept)
                (0,external_node_fs_.linkSync)(file, kept);
            (0,external_node_fs_.renameSync)(tmp, file);
            done.push({ file, kept });
        }
    }
    catch (error) {
        // Put back what was replaced, remove what was new, and every temporary file left.
        for (const { file, kept } of done.reverse()) {
            if (kept)
                (0,external_node_fs_.renameSync)(kept, file);
            else
                (0,external_node_fs_.rmSync)(file, { force: true });
        }
        discard();
        throw new FileWriteError(at, error);
    }
    for (const { kept } of done)
        if (kept)
            (0,external_node_fs_.rmSync)(kept, { force: true });
}
/** Write `text` to a new `file`, whole, never replacing one that exists (a hard link of a finished temporary file). */
function writeNew(file, text) {
    const tmp = writeTemp(file, text);
    try {
        linkSync(tmp, file);
    }
    finally {
        rmSync(tmp, { force: true });
    }
}
/**
 * Write `chunks` to a new `file`, whole, never over a different one: `written`; `same` when `file`
 * already holds exactly these bytes (nothing is written); `different` when it holds others (nothing
 * is written). For evidence a tool makes from its inputs: the same inputs again are a no-op.
 */
function writeNewOrSame(file, chunks) {
    // Only a regular file is compared or written: a link, a FIFO or a device (/dev/stdout) is refused before anything is made.
    const there = lstatOrNull(file);
    if (there?.isSymbolicLink())
        throw new Error('it is a symbolic link: nothing is written through one');
    if (there && !there.isFile())
        throw new Error('it is not a regular file: a run is written to a file of its own');
    const tmp = writeTemp(file, chunks);
    try {
        linkSync(tmp, file);
        return 'written';
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
        // Made meanwhile: compared only if it is a regular file.
        if (!lstatSync(file).isFile())
            throw new Error('it is not a regular file: a run is written to a file of its own');
        return readFileSync(tmp).equals(readFileSync(file)) ? 'same' : 'different';
    }
    finally {
        rmSync(tmp, { force: true });
    }
}

;// CONCATENATED MODULE: ./src/tools/verdict.ts
/**
 * Writing the verdict attestation (docs/attestations.md §2): the predicate alone (for
 * `actions/attest`, which makes and signs the Statement around it) and/or the Statement in a DSSE
 * envelope signed with an Ed25519 key (for consumers outside GitHub: `verify-attestation`). The
 * payload is the UTF-8 of JCS(the Statement). The files are written whole, all of them or none.
 */







/** Write the requested files; `message` lists what was written. */
/**
 * @param beside files written with the verdict, all or none (the report it is about, its SARIF): a
 * verdict that cannot be written leaves none of them
 */
function writeVerdict(report, origin, files, beside = []) {
    const ctx = {
        reportName: reportName(origin.workspace, origin.reportFile),
        reportSha256: origin.reportDigest.replace(/^sha256:/, ''),
        resourceUri: origin.resourceUri,
        policyUri: origin.policyUri,
        inputs: origin.inputs,
        version: origin.version,
    };
    if (origin.checkoutDiffers !== null)
        return {
            ok: false,
            reason: [
                (0,core_findings/* inputFinding */.uY)('invalid_artifact', files.predicate ?? files.envelope ?? '', `the verdict would name ${origin.resourceUri}, but ${origin.checkoutDiffers}: check out that commit, and let no step before the gate change its inputs`),
            ],
        };
    const statement = vsaStatement(report, ctx);
    // Every file's text first; then all of them written whole, or none (a signer that fails writes nothing).
    const out = [...beside];
    if (files.predicate)
        out.push([files.predicate, `${JSON.stringify(statement.predicate, null, 2)}\n`]);
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
        out.push([files.envelope, `${envelopeLine(read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, Buffer.from(payload.text, 'utf8'), files.key)}\n`]);
    }
    try {
        writeAllWhole(out);
    }
    catch (error) {
        const at = error instanceof FileWriteError ? error.file : (files.envelope ?? files.predicate ?? '');
        return { ok: false, reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', at, `cannot write the verdict: ${(0,core_text/* messageOf */.bD)(error)}`)] };
    }
    const written = out.slice(beside.length).map(([file]) => file);
    return { ok: true, value: written.join('\n') };
}

;// CONCATENATED MODULE: ./src/version.ts
/** The version receipt-gate reports (SARIF, --version); package.json says the same (a test compares). */
const VERSION = '0.2.0';

;// CONCATENATED MODULE: ./src/action/cache.ts
/**
 * The evidence cache in the action (gate/cache.ts holds the entries and their checks). A pull
 * request costs what it changes: a run on the default branch reads every byte and saves the entries
 * it wrote; a pull request (or a merge group) restores the newest archive the default branch saved
 * for this job and reads only the files whose bytes are not there.
 *
 * Who can write the entries is who the gate trusts with them, so:
 * - only a push, schedule or manual run on the default branch saves (never a pull_request_target
 *   run, whose ref is the default branch but whose files are the pull request's), and it reads no
 *   entry itself: it starts from an empty folder, so what it saves is exactly what it read;
 * - a pull request takes the key from GitHub's list of caches saved on the default branch (the ref
 *   is the service's, not the saver's word), and that key names the digest of the archive's
 *   entries: an archive of that key saved anywhere else (a pull request's own scope, which a
 *   restore looks in first) is used only if it is byte for byte those entries. Nothing is unpacked:
 *   the archive is read whole and its entries written one by one (cache-archive.ts);
 * - what it cannot tell: which workflow saved an archive on the default branch. Every job whose ref
 *   is the default branch can save there (`pull_request_target`, `workflow_run`, `issue_comment`
 *   jobs too), so turning the cache on (`cache: true`, off by default) trusts every workflow of the
 *   repository that runs there (docs/cache.md);
 * - a verdict (`vsa`, `vsa-predicate`) neither reads nor saves.
 * Nothing here changes a verdict: a cache that cannot be listed, restored or saved costs time and
 * says why in the log.
 */




/** Events whose run may save: a push, a schedule or a manual run, on the default branch. */
const SAVING_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);
/** Events whose run restores: a pull request's, or a merge queue's. */
const RESTORING_EVENTS = new Set(['pull_request', 'merge_group']);
/** A saved key's end: the digest of its archive's entries. */
const DIGEST_AT_END = /-([0-9a-f]{64})$/;
/**
 * The plan: off (the input, a verdict, no cache service, an event that neither saves nor restores),
 * save (the default branch) or restore (a pull request). Keys name the build, the default branch,
 * the job (`job`: a digest of the workflow, the job's id and the gate's inputs, so two gates never
 * share an archive), the run, and the digest of the entries:
 * `receipt-gate-evidence-v3-<build>-refs/heads/<branch>-<job>-<sha>-<run>-<attempt>-<digest>`.
 */
function planCache(enabled, verdict, ctx, env, service, build, job) {
    if (!enabled)
        return { kind: 'off', why: 'cache: false' };
    if (verdict)
        return { kind: 'off', why: 'a verdict reads every byte' };
    if (service === null)
        return { kind: 'off', why: 'no cache service in this job (GitHub Enterprise Server has none this action speaks to)' };
    // A schedule's event names no repository: it always runs on the default branch, its GITHUB_REF.
    const ref = ctx.defaultBranch !== null ? `refs/heads/${ctx.defaultBranch}` : null;
    if (ref === null || !ref.startsWith('refs/heads/'))
        return { kind: 'off', why: 'the event names no default branch' };
    const prefix = `receipt-gate-evidence-v3-${build}-${ref}-${job}-`;
    const dir = external_node_path_default().join(env['RUNNER_TEMP'] || external_node_path_default().join(ctx.workspace, '..'), 'receipt-gate-cache');
    if (SAVING_EVENTS.has(ctx.eventName)) {
        if (env['GITHUB_REF'] !== ref)
            return { kind: 'off', why: `${env['GITHUB_REF'] ?? 'this ref'} is not the default branch` };
        return { kind: 'save', dir, prefix, run: `${ctx.sha ?? 'unknown'}-${env['GITHUB_RUN_ID'] ?? '0'}-${env['GITHUB_RUN_ATTEMPT'] ?? '1'}` };
    }
    if (RESTORING_EVENTS.has(ctx.eventName))
        return { kind: 'restore', dir, prefix, ref };
    return { kind: 'off', why: `a ${ctx.eventName || 'run without an event'} neither saves nor restores` };
}
/** The newest key GitHub lists on `ref` starting with `prefix` and ending in a digest; or why there is none. */
async function newestOn(api, ctx, prefix, ref) {
    if (!ctx.owner || !ctx.repo)
        return 'no repository in the context';
    const query = `key=${encodeURIComponent(prefix)}&ref=${encodeURIComponent(ref)}&sort=created_at&direction=desc&per_page=100`;
    let r;
    try {
        r = await api.request('GET', `/repos/${ctx.owner}/${ctx.repo}/actions/caches?${query}`);
    }
    catch (error) {
        return `listing the repository's caches failed (${(0,core_text/* messageOf */.bD)(error)})`;
    }
    if (r.status === 403)
        return "listing the repository's caches was refused (403: the token needs actions: read)";
    if (r.status !== 200)
        return `listing the repository's caches answered ${r.status}`;
    const list = (0,core_json/* isObject */.Gv)(r.data) ? r.data['actions_caches'] : null;
    if (!Array.isArray(list))
        return "the list of the repository's caches is not one";
    for (const c of list) {
        const key = (0,core_json/* str */.gx)(c, 'key');
        if (key !== null && (0,core_json/* str */.gx)(c, 'ref') === ref && key.startsWith(prefix) && DIGEST_AT_END.test(key))
            return { key };
    }
    return `nothing saved by ${ref} for this job yet`;
}
/** Before the gate: an empty folder to save from; or the default branch's newest entries for this job, checked against their key. Never an error. */
async function prepareCache(plan, service, api, ctx) {
    if (plan.kind === 'off' || service === null)
        return { cache: null, said: `receipt-gate: cache: off (${plan.kind === 'off' ? plan.why : 'no cache service'})` };
    (0,external_node_fs_.rmSync)(plan.dir, { recursive: true, force: true });
    if (plan.kind === 'save')
        return {
            cache: { dir: plan.dir, read: false },
            said: `receipt-gate: cache: every file read; the entries are saved after the gate (${plan.prefix}…)`,
        };
    const newest = await newestOn(await api(), ctx, plan.prefix, plan.ref);
    if (typeof newest === 'string')
        return { cache: null, said: `receipt-gate: cache: not restored: ${newest}; every file read` };
    const { key } = newest;
    const digest = DIGEST_AT_END.exec(key)?.[1] ?? '';
    try {
        const url = await service.downloadUrl(key);
        if (url === null)
            return {
                cache: null,
                said: `receipt-gate: cache: ${key} not restored (the cache service has no archive of exactly that key); every file read`,
            };
        const { unpackEntries } = await __nccwpck_require__.e(/* import() */ 391).then(__nccwpck_require__.bind(__nccwpck_require__, 391));
        const unpacked = unpackEntries(await service.download(url), digest, plan.dir);
        if (!unpacked.ok) {
            (0,external_node_fs_.rmSync)(plan.dir, { recursive: true, force: true });
            return { cache: null, said: `receipt-gate: cache: ${key} not used: ${unpacked.reason}; every file read` };
        }
        return {
            cache: { dir: plan.dir, read: true },
            said: `receipt-gate: cache: ${key} restored from ${plan.ref} (${unpacked.entries} entries)`,
        };
    }
    catch (error) {
        (0,external_node_fs_.rmSync)(plan.dir, { recursive: true, force: true });
        return {
            cache: null,
            said: `receipt-gate: cache: ${key} not restored (${(0,core_text/* messageOf */.bD)(error)}); every file read`,
        };
    }
}
/** After the gate, on the default branch: save what it read, under a key naming its entries. What was saved, or why not. */
async function saveCache(plan, service) {
    if (plan.kind !== 'save' || service === null)
        return null;
    try {
        const { packEntries } = await __nccwpck_require__.e(/* import() */ 391).then(__nccwpck_require__.bind(__nccwpck_require__, 391));
        const packed = packEntries(plan.dir);
        const key = `${plan.prefix}${plan.run}-${packed.digest}`;
        await service.upload(key, packed.bytes);
        return { ok: true, said: `receipt-gate: cache: ${packed.entries} entries saved as ${key}` };
    }
    catch (error) {
        return { ok: false, said: (0,core_text/* messageOf */.bD)(error) };
    }
}

;// CONCATENATED MODULE: ./src/action/github-client.ts
/**
 * The only network code in receipt-gate: the GitHub API for reporting (never for verification),
 * and the run's context read from the runner's environment. The client is @actions/github's Octokit
 * (proxy from HTTPS_PROXY / NO_PROXY, GHES from GITHUB_API_URL) with @octokit/plugin-throttling (a
 * secondary-rate-limit 403 or 429 and an exhausted primary limit are retried after the time GitHub
 * asks for) and @octokit/plugin-retry (5xx retried with backoff), all within a bounded total wait.
 * It is imported only when a run reports through the API, so a run that does not pays nothing.
 */





/** Longest total time spent waiting for rate limits before giving up (then: workflow commands). */
const MAX_RATE_LIMIT_WAIT_SECONDS = 120;
/** Retries of one request after a rate limit, and after a 5xx. */
const MAX_RETRIES = 2;
/** An Octokit-backed client; `log` hears every wait, so the step's log says why it paused. */
async function octokitApi(token, baseUrl, log) {
    const [{ getOctokit }, { defaults }, { retry }, { throttling }] = await Promise.all([
        Promise.all(/* import() */[__nccwpck_require__.e(555), __nccwpck_require__.e(351)]).then(__nccwpck_require__.bind(__nccwpck_require__, 1351)),
        __nccwpck_require__.e(/* import() */ 555).then(__nccwpck_require__.bind(__nccwpck_require__, 5555)),
        Promise.all(/* import() */[__nccwpck_require__.e(251), __nccwpck_require__.e(735)]).then(__nccwpck_require__.bind(__nccwpck_require__, 9735)),
        Promise.all(/* import() */[__nccwpck_require__.e(251), __nccwpck_require__.e(856)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6856)),
    ]);
    let waited = 0;
    const wait = (kind) => (retryAfter, options, _o, retryCount) => {
        if (retryCount >= MAX_RETRIES || waited + retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS) {
            log(`receipt-gate: ${kind} on ${options.method} ${options.url}; not waiting ${retryAfter} s more (${waited} s already, at most ${MAX_RATE_LIMIT_WAIT_SECONDS} s)`);
            return false;
        }
        waited += retryAfter;
        log(`receipt-gate: ${kind} on ${options.method} ${options.url}; retrying after ${retryAfter} s as GitHub asks`);
        return true;
    };
    const octokit = getOctokit(token, {
        // The API of this run's GitHub (GHES too), from the context: never a value read when a module was imported.
        baseUrl: baseUrl.replace(/\/+$/, ''),
        userAgent: 'receipt-gate',
        throttle: { onRateLimit: wait('rate limit'), onSecondaryRateLimit: wait('secondary rate limit') },
        // 429 is the throttling plugin's (and ours, below), never plugin-retry's blind backoff.
        retry: { retries: MAX_RETRIES, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
        // Keep the toolkit's proxy-aware fetch and agent (HTTPS_PROXY, NO_PROXY): only add a timeout.
        request: { ...defaults.request, timeout: 30_000 },
    }, retry, throttling);
    const once = async (method, path, body, retries) => {
        try {
            const r = await octokit.request(`${method} ${path}`, {
                ...((0,core_json/* isObject */.Gv)(body) ? body : {}),
                headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
                // A create is not idempotent: no retry of it after a lost answer (report/check-run.ts looks for it instead).
                // The body unparsed: an id is an int64, and JSON.parse alone rounds one past 2^53.
                request: { parseSuccessResponseBody: false, ...(retries ? {} : { retries: 0, retryAfter: 0 }) },
            });
            return { status: r.status, data: await exactJson(r.data) };
        }
        catch (error) {
            const err = error;
            // An answer from GitHub is a status; no answer at all (refused, reset, timed out) is a network error.
            if (typeof err.status !== 'number' || err.status < 400 || !err.response)
                throw error;
            const after = Number(err.response.headers?.['retry-after']);
            return {
                status: err.status,
                data: err.response.data ?? { message: err.message },
                ...(Number.isFinite(after) ? { retryAfter: after } : {}),
            };
        }
    };
    return {
        async request(method, path, body, options) {
            // A 429 the throttling plugin did not take (no "secondary rate" message): wait what it asks, bounded.
            for (let attempt = 0;; attempt++) {
                const r = await once(method, path, body, options?.once !== true);
                if (r.status !== 429 || !wait('rate limit (429)')(r.retryAfter ?? 60, { method, url: path }, null, attempt))
                    return r;
                await new Promise((resolve) => setTimeout(resolve, (r.retryAfter ?? 60) * 1000));
            }
        },
    };
}
/**
 * A JSON answer with every integer past 2^53 kept as its digits (a check run id is an int64:
 * 9007199254740993 must not become …992). Needs JSON.parse's source text (Node 22 and later).
 */
async function exactJson(body) {
    if (!(body instanceof ReadableStream))
        return body ?? null;
    const text = await new Response(body).text();
    if (text.trim() === '')
        return null;
    return JSON.parse(text, (_key, value, context) => typeof value === 'number' && !Number.isSafeInteger(value) && typeof context?.source === 'string' && /^\d+$/.test(context.source)
        ? context.source
        : value);
}
/**
 * Events GitHub runs on the default branch's last commit (GITHUB_SHA) that a pull request's author can
 * start or that carry a pull request in their own words (an outside CI's status on a fork's head, a
 * ChatOps dispatch's `client_payload.pull_request`): a job may check the pull request out, so the
 * policy and trust are read at GITHUB_SHA, never in the checkout (red teams).
 */
const ON_DEFAULT_BRANCH = new Set(['check_suite', 'check_run', 'status', 'repository_dispatch']);
/** Events whose checkout a pull request controls even when the payload says so in other words. */
const PULL_EVENTS = new Set([
    'pull_request',
    'pull_request_target',
    'pull_request_review',
    'pull_request_review_comment',
    'merge_group',
    'workflow_run',
]);
const str = (v) => (typeof v === 'string' && v !== '' ? v : null);
/**
 * The repository's default branch: as the payload names it, or for a schedule (which GitHub runs
 * on the default branch, with a payload that names no repository) the branch it runs on; null when
 * neither says (never a guess such as main).
 */
function defaultBranchOf(entry, env) {
    const named = (0,core_json/* isObject */.Gv)(entry['repository']) ? str(entry['repository']['default_branch']) : null;
    if (named !== null)
        return named;
    const ref = env['GITHUB_REF'] ?? '';
    return env['GITHUB_EVENT_NAME'] === 'schedule' && ref.startsWith('refs/heads/') ? str(ref.slice('refs/heads/'.length)) : null;
}
/** Whether the workspace, the working-directory input or the policy input's folder is in a git clone. */
function inClone(workspace, env) {
    const policy = env['INPUT_POLICY'] || defaults_DEFAULTS.policy;
    const dirs = [workspace, external_node_path_default().resolve(workspace, env['INPUT_WORKING-DIRECTORY'] || '.'), external_node_path_default().dirname(external_node_path_default().resolve(workspace, policy))];
    return dirs.some((d) => (0,external_node_fs_.existsSync)(d) && resolveCommit(d, 'HEAD') !== null);
}
function readContext(env, cwd) {
    const [owner, repo] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
    let event = null;
    const eventPath = env['GITHUB_EVENT_PATH'];
    if (eventPath) {
        try {
            event = JSON.parse((0,external_node_fs_.readFileSync)(eventPath, 'utf8'));
        }
        catch {
            event = null; // no event context: annotations go to GITHUB_SHA
        }
    }
    const entry = (0,core_json/* isObject */.Gv)(event) ? event : {};
    const pr = (0,core_json/* isObject */.Gv)(entry['pull_request']) ? entry['pull_request'] : null;
    const head = pr && (0,core_json/* isObject */.Gv)(pr['head']) ? str(pr['head']['sha']) : null;
    const base = pr && (0,core_json/* isObject */.Gv)(pr['base']) ? str(pr['base']['sha']) : null;
    const mg = (0,core_json/* isObject */.Gv)(entry['merge_group']) ? str(entry['merge_group']['head_sha']) : null;
    const mgBase = (0,core_json/* isObject */.Gv)(entry['merge_group']) ? str(entry['merge_group']['base_sha']) : null;
    const run = (0,core_json/* isObject */.Gv)(entry['workflow_run']) ? entry['workflow_run'] : null;
    const wr = run ? str(run['head_sha']) : null;
    // workflow_run (the fork recipe): the policy is read at the base of the pull request that triggered
    // the run; a fork's run lists no pull request, and then the base is the default branch's commit the
    // run was started on (GITHUB_SHA for workflow_run), never the head's (docs/policy.md §9).
    // Only a pull request into this repository counts: the list may name one between a fork's own
    // branches, whose base commit (readable through this repository's API: forks share objects) holds
    // what the fork's author wrote (a red team). Compared by the repositories' numeric ids.
    const runPulls = run && Array.isArray(run['pull_requests']) ? run['pull_requests'] : [];
    const repoId = (0,core_json/* isObject */.Gv)(entry['repository']) ? entry['repository']['id'] : undefined;
    // And only one whose head is the run's head: the list names pull requests whose head matches the
    // run's branch, perhaps another of this repository's into another branch (a red team's hardening).
    const ours = runPulls.find((p) => (0,core_json/* isObject */.Gv)(p) &&
        (0,core_json/* isObject */.Gv)(p['base']) &&
        (0,core_json/* isObject */.Gv)(p['base']['repo']) &&
        Number.isSafeInteger(repoId) &&
        p['base']['repo']['id'] === repoId &&
        (0,core_json/* isObject */.Gv)(p['head']) &&
        wr !== null &&
        p['head']['sha'] === wr);
    const runBase = run ? ((ours && (0,core_json/* isObject */.Gv)(ours['base']) ? str(ours['base']['sha']) : null) ?? str(env['GITHUB_SHA'])) : null;
    // Check suites and runs, statuses, repository dispatches and comments on a pull request run on the default branch's last commit
    // (GITHUB_SHA) whatever they name; a workflow that checks a pull request's head out must never read
    // its policy there (a red team: a ChatOps gate read the pull request's own, and passed). Their
    // policy and trust are read at GITHUB_SHA: the default branch's, never a head's (a fork's suite lists
    // no pull request; one of the default branch names the pull requests it heads).
    const checks = (0,core_json/* isObject */.Gv)(entry['check_suite']) || (0,core_json/* isObject */.Gv)(entry['check_run']) || ON_DEFAULT_BRANCH.has(env['GITHUB_EVENT_NAME'] ?? '');
    const issuePull = (0,core_json/* isObject */.Gv)(entry['issue']) && (0,core_json/* isObject */.Gv)(entry['issue']['pull_request']);
    const pullish = PULL_EVENTS.has(env['GITHUB_EVENT_NAME'] ?? '') || pr !== null || checks || issuePull;
    // Any other event (workflow_dispatch, schedule, push…) run in a git clone: the policy and trust are
    // GITHUB_SHA's, read with git (or the contents API), never the checkout's. A job may have checked
    // a pull request's head out, merged it uncommitted (`git merge --squash`), or cloned it into a
    // folder (`path:`, the working-directory): each let the pull request's own policy judge it (red
    // teams). Outside a clone (artifacts only) the files on disk are the job's own.
    const workspace = env['GITHUB_WORKSPACE'] ?? cwd;
    const sha = str(env['GITHUB_SHA']);
    const elsewhere = !pullish && sha !== null && inClone(workspace, env);
    const otherBase = checks || issuePull || elsewhere ? sha : null;
    return {
        owner: str(owner),
        repo: str(repo),
        headSha: head ?? mg ?? wr ?? str(env['GITHUB_SHA']),
        sha: str(env['GITHUB_SHA']),
        merge: head && base && str(env['GITHUB_SHA']) !== head ? { head, base } : null,
        eventName: env['GITHUB_EVENT_NAME'] ?? '',
        serverUrl: env['GITHUB_SERVER_URL'] ?? 'https://github.com',
        apiUrl: env['GITHUB_API_URL'] ?? 'https://api.github.com',
        workspace,
        defaultBranch: defaultBranchOf(entry, env),
        baseSha: base ?? mgBase ?? runBase ?? otherBase,
        pull: pullish || elsewhere,
    };
}

;// CONCATENATED MODULE: ./src/gate/settings/parsers.ts






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
        throw new UsageError('value', `${name}: "${value}" is not a size (e.g. 64MiB, 512KiB, 1048576)`);
    const bytes = Math.floor(Number(match[1]) * unit);
    if (!Number.isSafeInteger(bytes) || bytes < 1)
        throw new UsageError('value', `${name}: "${value}" is out of range`);
    return bytes;
}
/** YAML 1.2 core booleans, as @actions/core reads them. */
function parseBool(name, value) {
    const given = value.trim();
    if (['true', 'True', 'TRUE'].includes(given))
        return true;
    if (['false', 'False', 'FALSE', ''].includes(given))
        return false;
    throw new UsageError('value', `${name}: "${value}" is not a boolean (true or false)`);
}
function parseChoice(name, value, choices) {
    const given = value.trim();
    if (choices.includes(given))
        return given;
    throw new UsageError('value', `${name}: "${value}" must be one of ${choices.join(', ')}`);
}
/**
 * Required-level rules as `parseList` splits them. A value that holds only separators (`,`, blank
 * lines) names no rule: an error, never a gate that requires nothing (an empty value is none given:
 * the action's empty input; the CLI refuses an empty flag before this).
 */
function parseRules(name, value) {
    const rules = parseList(value);
    if (rules.length === 0 && value.trim() !== '')
        throw new UsageError('value', `${name}: ${JSON.stringify(value)} names no rule (an unset variable?): give SELECTOR=LEVEL, e.g. github_deploy_key:create=verified, or leave it out`);
    return rules;
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
        trustMode: 'enforce',
        jobs: parseJobs('jobs', DEFAULTS.jobs),
        cache: null,
        writes: [],
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
        throw new UsageError('value', `${name}: "${value}" is not a number of threads from 1 to ${MAX_JOBS}, or auto`);
    return Number(given);
}
/** The OIDC issuer of GitHub Actions' tokens: what a workflow certificate names by default. */
const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
const IDENTITY = /^https:\/\/[^\s@]+@refs\/\S+$/;
/** Why a value is not a workflow identity, or null. */
const identityProblem = (id) => IDENTITY.test(id)
    ? null
    : `"${id}" is not a workflow identity (an https:// URI with @refs/, e.g. https://github.com/OWNER/REPO/.github/workflows/export.yml@refs/heads/main)`;
/** Why a value is not an OIDC issuer, or null. */
const issuerProblem = (issuer) => /^https:\/\/\S+$/.test(issuer) ? null : `"${issuer}" is not an https:// URL`;
/** Why a value is not a ref a trusted identity's workflow may run on, or null. */
const refProblem = (ref) => /^refs\/\S+$/.test(ref) ? null : `"${ref}" is not a ref (refs/heads/main, refs/tags/v1)`;
/** Identities, source repository, refs and issuer, checked (semantics "Keyless trust"); no identity at all: null. */
function readKeyless(k, names) {
    for (const [list, name] of [
        [k.signerIdentities, names.signerIdentities],
        [k.producerIdentities, names.producerIdentities],
    ]) {
        for (const id of list) {
            const problem = identityProblem(id);
            if (problem !== null)
                throw new UsageError('value', `${name}: ${problem}`);
        }
    }
    const issuer = k.issuer ?? GITHUB_ACTIONS_ISSUER;
    // Checked even with no identity: a typo there must not wait, unseen, for the day identities are set.
    const issuerWrong = issuerProblem(issuer);
    if (issuerWrong !== null)
        throw new UsageError('value', `${names.issuer}: ${issuerWrong}`);
    if (k.signerIdentities.length === 0 && k.producerIdentities.length === 0)
        return null;
    const repo = k.sourceRepository;
    if (repo === null || repo === '')
        throw new UsageError('missing', `${names.sourceRepository}: required with any trusted identity (the repository the workflows must have run for)`);
    if (!/^[^/\s]+\/[^/\s]+$/.test(repo))
        throw new UsageError('value', `${names.sourceRepository}: "${repo}" is not OWNER/NAME`);
    for (const r of k.sourceRefs) {
        const problem = refProblem(r);
        if (problem !== null)
            throw new UsageError('value', `${names.sourceRefs}: ${problem}`);
    }
    const defaultRef = k.defaultRef;
    if (k.sourceRefs.length === 0 && defaultRef === null)
        throw new UsageError('missing', `${names.sourceRefs}: this event names no default branch (its payload has no repository.default_branch), so the refs a trusted identity's workflow must have run on cannot default to it: give them (refs/heads/BRANCH)`);
    const policy = (ids) => ids.length === 0
        ? null
        : {
            identities: new Set(ids),
            sourceRepository: repo,
            sourceRefs: new Set(k.sourceRefs.length > 0 || defaultRef === null ? k.sourceRefs : [defaultRef]),
            issuer,
        };
    return { signers: policy(k.signerIdentities), producers: policy(k.producerIdentities), trustedRoot: k.trustedRoot };
}
/** Required-level rules, each a usage error naming the rule when it is wrong. */
function readPolicy(name, rules) {
    const result = parsePolicy(rules);
    if (!result.ok)
        throw new UsageError('value', `${name}: ${result.reason}`);
    return result.value;
}
/**
 * Trusted signers from PEM texts (each may hold several PUBLIC KEY blocks); `sources` name where
 * each text came from, for the message when one does not parse, and where the policy file names it
 * (`at`: then a located policy mistake). None: null (no trust configured).
 */
function readTrustedKeys(sources) {
    if (sources.length === 0)
        return null;
    const keys = [];
    for (const s of sources) {
        const parsed = parsePublicKeys(s.pem);
        if (!parsed.ok) {
            if (s.at)
                throw new PolicyMistake(s.at, `${s.name}: ${parsed.reason}`);
            throw new UsageError('value', `${s.name}: ${parsed.reason}`);
        }
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

;// CONCATENATED MODULE: ./src/gate/settings/build.ts
/**
 * The one settings builder. The CLI's flags and the action's inputs are two sources of one typed
 * record (`GateInputs`); this turns it into the verification's `Settings`: every default taken from
 * the one table, every value checked with one message naming the flag or input as its entry calls
 * it, and the rule that an empty list never turns trust off (semantics §12) stated once.
 */








/** An input list as given: its entries, or the default's when it was not given (or given empty). */
const listOr = (given, fallback) => given !== null && given.length > 0 ? given : parseList(fallback);
/**
 * Trust is never turned off by an empty value (semantics §12): with its switch on, a trust set with
 * no key and no identity is a configuration error naming both.
 */
function mustTrust(on, configured, switchName, keysName, idsName) {
    if (on && !configured)
        throw new UsageError('missing', `${switchName} is on, but neither ${keysName} nor ${idsName} is given (an unset repository variable is an empty string: set it, or the gate would accept what nobody it trusts vouched for)`);
}
/**
 * Trust from the policy file in effect (docs/policy.md §9): its key and root files read at the
 * policy's commit, named in messages by where the file says them. Trust inputs given beside it are a
 * configuration error naming both places: one source of truth, no merging.
 */
function policyTrust(g, trust, source) {
    const where = `${source.path}${source.commit ? ` at commit ${source.commit.slice(0, 12)}` : ''}`;
    if (g.trustGiven.length > 0)
        throw new UsageError('conflict', `${g.trustGiven.join(', ')} given, and the policy file ${where} has a trust: section (line ${trust.at.line}): trust has one place; remove the input(s) (the workflow file is part of the pull request it gates), or the section`);
    // Every mistake of the section is located at the value it is about (docs/policy.md §9), in the file
    // as read; a section read at a commit but its files in the checkout (a pull request's change to them) is placed in the checkout's file.
    const place = (at) => (source.commit === null ? { file: at.file, line: at.line, column: at.column } : at);
    const text = (p, key) => {
        const got = g.trustFile(p.path, source.commit);
        if (!got.ok)
            throw new PolicyMistake(place(p.at), `trust.${key}: ${got.reason}`);
        if (got.value === null)
            throw new PolicyMistake(place(p.at), `trust.${key}: ${p.path} does not exist at ${source.commit ? `commit ${source.commit.slice(0, 12)}` : 'the working tree'} (trust files are read at the same commit as the policy)`);
        return got.value;
    };
    const values = [
        ['trusted-signer-identities', trust.signerIdentities, identityProblem],
        ['trusted-producer-identities', trust.producerIdentities, identityProblem],
        ['source-refs', trust.sourceRefs ?? [], refProblem],
        ['certificate-oidc-issuer', trust.issuer ? [trust.issuer] : [], issuerProblem],
    ];
    for (const [key, list, problemOf] of values)
        for (const v of list) {
            const problem = problemOf(v.value);
            if (problem !== null)
                throw new PolicyMistake(place(v.at), `trust.${key}: ${problem}`);
        }
    const pems = (list, key) => list.map((p) => ({ name: `trust.${key} ${p.path}`, pem: text(p, key), at: place(p.at) }));
    const name = (key) => `${source.path}: trust.${key}`;
    const strings = (list) => list.map((v) => v.value);
    return {
        mode: trust.mode,
        trustedKeys: pems(trust.trustedKeys, 'trusted-keys'),
        requireSignedRecords: trust.requireSignedRecords,
        trustedProducers: pems(trust.trustedProducers, 'trusted-producers'),
        requireAttestedRuns: trust.requireAttestedRuns,
        identities: {
            ...g.identities,
            signerIdentities: strings(trust.signerIdentities),
            producerIdentities: strings(trust.producerIdentities),
            sourceRefs: strings(trust.sourceRefs ?? []),
            issuer: trust.issuer?.value ?? defaults_DEFAULTS['certificate-oidc-issuer'],
        },
        trustedRoot: trust.trustedRoot
            ? { kind: 'file', file: { path: trust.trustedRoot.path, commit: source.commit, text: text(trust.trustedRoot, 'trusted-root') } }
            : null,
        rootAt: trust.trustedRoot ? place(trust.trustedRoot.at) : null,
        names: {
            ...g.names,
            trustedKeys: name('trusted-keys'),
            requireSignedRecords: name('require-signed-records'),
            trustedProducers: name('trusted-producers'),
            requireAttestedRuns: name('require-attested-runs'),
            signerIdentities: name('trusted-signer-identities'),
            producerIdentities: name('trusted-producer-identities'),
            sourceRefs: name('source-refs'),
            issuer: name('certificate-oidc-issuer'),
            // The root's name in its own messages, after the place of the entry naming it.
            trustedRoot: 'trust.trusted-root',
        },
    };
}
/**
 * Why a pull request's own trust: section would not load once merged (a key file that is missing or
 * no PEM key, a root that does not parse, an identity pattern refused), in the words the policy in
 * effect would get; null when it loads. Its files are read where the head's policy was.
 */
function headTrustProblem(g, trust, source) {
    try {
        // The inputs given are the pull request's workflow's, which will run beside this section once merged.
        const t = policyTrust(g, trust, source);
        readTrustedKeys(t.trustedKeys);
        readTrustedKeys(t.trustedProducers);
        const root = t.trustedRoot?.kind === 'file' && t.rootAt
            ? { name: `${t.names.trustedRoot} ${t.trustedRoot.file.path}`, text: t.trustedRoot.file.text, at: t.rootAt }
            : null;
        readKeyless({ ...t.identities, trustedRoot: root }, keylessNames(t.names));
        // The root's own check loads the Sigstore code: it runs where the roots are read (gate.ts), named by `root`, located at its entry.
        return { root };
    }
    catch (error) {
        // A mistake at a value of the section is a finding there; any other (a conflict with the inputs) at the section.
        if (error instanceof PolicyMistake)
            return { problem: error.detail, at: error.at };
        if (error instanceof UsageError)
            return { problem: error.message, at: null };
        throw error;
    }
}
/** What the keyless inputs are called where they were given. */
const keylessNames = (n) => ({
    signerIdentities: n.signerIdentities,
    producerIdentities: n.producerIdentities,
    sourceRepository: n.sourceRepository,
    sourceRefs: n.sourceRefs,
    issuer: n.issuer,
});
/**
 * A pull request's rules' signed-by against the signers its policy has once merged: its own trust:
 * section's, or the inputs' when it has none (a red team's head kept `signed-by: [K1]` beside a
 * trust: section that no longer gives K1: it passed, then stopped every pull request once merged).
 * Trust that does not load is said where it is read (headTrustProblem, the base's own checks).
 */
function signedByOnceMerged(given, proposed, head, now) {
    let signers;
    try {
        const t = proposed.trust && proposed.source ? { ...given, ...policyTrust(given, proposed.trust, proposed.source) } : given;
        const keys = readTrustedKeys(t.trustedKeys);
        const keyless = readKeyless({ ...t.identities, trustedRoot: null }, keylessNames(t.names));
        signers = { keyIds: keys ? [...keys.keys()] : [], identities: keyless?.signers ? [...keyless.signers.identities] : [] };
    }
    catch (error) {
        if (error instanceof UsageError)
            return [];
        throw error;
    }
    return headUnder(head, { now, signers });
}
/** The verification's settings from what either entry was given; a mistake throws a UsageError naming it. */
function buildSettings(given) {
    // The policy in effect is read once without its signers (they may come from its own trust: section), then for good.
    const peek = settlePolicy(given.policy, { now: given.now, signers: null });
    const fileTrust = peek.policy?.trust && peek.policy.source ? policyTrust(given, peek.policy.trust, peek.policy.source) : null;
    const g = fileTrust ? { ...given, ...fileTrust } : given;
    const trustMode = fileTrust?.mode ?? 'enforce';
    const n = g.names;
    // An empty path is an unset variable, never "no input": `--audit ''` read no export at all, and coverage went with it.
    for (const [given, name] of [
        [g.runs, n.runs],
        [g.audit, n.audit],
    ])
        if (given?.some((p) => p.trim() === ''))
            throw new UsageError('path', `${name}: an empty path (an unset variable?): name the files or folder, or leave it out for the default`);
        else if (given && given.length > 0 && given.every((p) => p.trim().startsWith('!')))
            throw new UsageError('path', `${name}: only exclusions (${given.join(', ')}): name what to read, then what to leave out (e.g. .assay/audit and !.assay/audit/drafts/**)`);
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
            ...(fileTrust?.rootAt ? { at: fileTrust.rootAt } : {}),
        };
        if (settled.review)
            reviews.push(settled.review);
    }
    const keyless = readKeyless({ ...g.identities, trustedRoot }, keylessNames(n));
    const trustedKeys = readTrustedKeys(g.trustedKeys);
    const trustedProducers = readTrustedKeys(g.trustedProducers);
    mustTrust(g.requireSignedRecords, trustedKeys !== null || keyless?.signers != null, n.requireSignedRecords, n.trustedKeys, n.signerIdentities);
    mustTrust(g.requireAttestedRuns, trustedProducers !== null || keyless?.producers != null, n.requireAttestedRuns, n.trustedProducers, n.producerIdentities);
    const now = g.now;
    const signers = {
        keyIds: trustedKeys ? [...trustedKeys.keys()] : [],
        identities: keyless?.signers ? [...keyless.signers.identities] : [],
    };
    // Read again with its signers, always: a key spelt with a YAML escape ("signed\x2Dby") is a signed-by
    // the text does not show (a red team: a test of the text skipped the check).
    // A base policy valid without its signers is repaired by the head's only when its signers are its own (a trust: section read at the base), never the inputs'.
    const settled = settlePolicy(g.policy, { now, signers }, { open: fileTrust !== null || peek.repaired === true });
    const rules = g.require.flatMap(parseList);
    if (settled.policy && rules.length > 0)
        throw new UsageError('conflict', `${n.require}: the policy file ${settled.policy.source?.path ?? ''} is in effect: requirements have one place (move the rules into the file, or remove it)`);
    // A pull request adding the first policy file while the workflow gives rules passes here, and once
    // merged every run is this conflict (a red team): it must be valid to merge.
    const adding = settled.review?.head ?? null;
    if (!settled.policy && adding?.source && rules.length > 0)
        reviews.push((0,core_findings/* finding */.gk)('policy_invalid', { file: adding.source.path, line: 1, column: 1 }, `this pull request adds the policy file ${adding.source.path} while ${n.require} gives rules: once merged every run stops with a configuration error (requirements have one place); move the rules into the file and remove ${n.require} from the workflow (this pull request's policy; it must be valid to merge)`));
    for (const file of fileTrust ? (given.trustFilesChanged ?? []) : [])
        reviews.push((0,core_findings/* finding */.gk)('policy_changed', { file, line: 1, column: 1 }, `this pull request changes ${file}, which the policy's trust: section names: trust material is read at the base, so the change takes effect after merge; new bytes at a trusted path trust what they hold: a reviewer must approve it`, 'warning'));
    // A pull request that leaves its policy at a near-miss path (renamed to .yaml, or added there) passes
    // here and, once merged, stops every pull request with a configuration error, its repair too (a red team).
    if (given.headNearMiss)
        reviews.push((0,core_findings/* finding */.gk)('policy_invalid', { file: given.headNearMiss.found, line: 1, column: 1 }, `this pull request leaves no policy file at ${given.headNearMiss.policy}, but ${given.headNearMiss.found} exists: once merged the gate stops every pull request with a configuration error (a policy at a near-miss path is never read); move it to ${given.headNearMiss.policy} (this pull request's policy; it must be valid to merge)`));
    // The pull request's own trust: section must load too (docs/policy.md §9: a key file that does not parse is
    // policy_invalid): once merged it is the one in effect. So must the base's section over the files the
    // pull request changes (a key file broken, the policy's bytes the same: a red team).
    const proposed = settled.review?.head ?? null;
    const inEffect = settled.policy;
    const merged = proposed?.trust && proposed.source
        ? { trust: proposed.trust, source: proposed.source }
        : fileTrust && inEffect?.trust && inEffect.source && (given.trustFilesChanged ?? []).length > 0
            ? { trust: inEffect.trust, source: { ...inEffect.source, commit: null } }
            : null;
    const headTrust = merged ? headTrustProblem(given, merged.trust, merged.source) : null;
    let headRoot = null;
    if (merged && headTrust) {
        const at = { file: merged.source.path, line: merged.trust.at.line, column: merged.trust.at.column };
        if ('problem' in headTrust)
            reviews.push((0,core_findings/* finding */.gk)('policy_invalid', headTrust.at ?? at, `${headTrust.problem} (this pull request's policy; it must be valid to merge)`));
        else if (headTrust.root)
            headRoot = headTrust.root;
    }
    if (proposed && g.policy.kind === 'pull' && g.policy.head && !(headTrust && 'problem' in headTrust))
        for (const f of signedByOnceMerged(given, proposed, g.policy.head, now))
            reviews.push(f);
    const review = settled.review ? [...reviews, ...settled.review.findings] : reviews;
    // A deleted policy file is judged as what follows the merge: the inputs' policy, under the file's name (its bytes: none).
    const deleted = settled.review?.deleted;
    const head = deleted !== undefined
        ? { ...readPolicy(n.require, rules), source: { path: deleted, commit: null, sha256: (0,binding/* sha256Hex */.fg)('') } }
        : (settled.review?.head ?? null);
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
        policyReview: review.length > 0 || head || headRoot ? { findings: review, head, ...(headRoot ? { headRoot } : {}) } : null,
        now,
        trustedKeys,
        trustedProducers,
        keyless,
        trustMode,
        cache: g.cache ? { ...g.cache, dir: external_node_path_default().resolve(g.cwd, g.cache.dir) } : null,
        writes: g.writes,
    };
}

;// CONCATENATED MODULE: ./src/action/inputs.ts
/**
 * The action's inputs → one typed settings object, in the manner of actions/checkout's input
 * helper: every input read once, its default taken from the settings table (the same default
 * `action.yml` declares; a test compares them), and validated before anything runs. A bad value is
 * one UsageError naming the input.
 */


















/** vsa-predicate, vsa and vsa-key, checked together; the key is PEM text from a secret, parsed in memory. */
function verdictInputs(predicate, envelope, keyPem, env) {
    if (predicate === null && envelope === null) {
        if (keyPem.trim() !== '')
            throw new UsageError('conflict', 'vsa-key: only with vsa (a path for the signed verdict)');
        return null;
    }
    let key = null;
    if (envelope !== null) {
        if (keyPem.trim() === '')
            throw new UsageError('missing', 'vsa: a signed verdict needs vsa-key (the PEM text of an Ed25519 private key, from a secret)');
        const result = parsePrivateKey(keyPem);
        if (!result.ok)
            throw new UsageError('value', `vsa-key: ${result.reason}`);
        key = result.value;
    }
    const resourceUri = resourceUriFromEnv(env);
    if (!resourceUri)
        throw new UsageError('missing', `${envelope !== null ? 'vsa' : 'vsa-predicate'}: GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA name the commit verified (SLSA requires resourceUri)`);
    return { predicate, envelope, key, resourceUri, commit: env['GITHUB_SHA'] ?? '', trustFiles: [] };
}
/**
 * A misspelt input (`requires:`, `trusted-key:`) must not leave the step green with a runner warning
 * only: every `INPUT_*` of the environment names an input of action.yml, else it is a configuration
 * error naming the nearest input.
 */
function refuseUnknownInputs(env, known) {
    for (const key of Object.keys(env)) {
        if (!key.startsWith('INPUT_'))
            continue;
        const name = key.slice('INPUT_'.length).toLowerCase();
        if (known.has(name))
            continue;
        const near = (0,core_text/* nearestName */.qb)(name, known);
        throw new UsageError('value', `${name}: not an input of receipt-gate${near ? ` (did you mean ${near}?)` : ''}; the inputs are listed in action.yml and the README`);
    }
}
/** A trust file's text on one side, null when absent, undefined when it cannot be used (for comparing the sides). */
const textOf = (side) => (side.ok ? side.value : undefined);
/** The key of a trust file read at a commit (null: the checkout). */
const trustKey = (file, commit) => `${commit ?? ''}\u0000${file}`;
/** A repository path an input names, relative to the workspace (never out of it). */
function inputs_repoPath(workspace, name, value) {
    const abs = external_node_path_default().resolve(workspace, value);
    const rel = external_node_path_default().relative(workspace, abs);
    if (!discover_inside(workspace, abs))
        throw new UsageError('path', `${name}: "${value}" is outside the workspace`);
    return rel.split((external_node_path_default()).sep).join('/');
}
async function readFiles(input, ctx, files) {
    const workspace = external_node_path_default().resolve(ctx.workspace);
    const policyValue = input('policy') || defaults_DEFAULTS.policy;
    // Named explicitly only when it names another file: `./.github/receipt-gate.yml` is the default, near-miss check and all (a red team).
    const explicit = input('policy') !== '' && inputs_repoPath(workspace, 'policy', policyValue) !== defaults_DEFAULTS.policy;
    const policyFile = await files.read(inputs_repoPath(workspace, 'policy', policyValue));
    // On a pull request the input is the pull request's to edit (its workflow): a gate that reads
    // another file than the base's own policy at the default path could be pointed at a looser one,
    // one the pull request adds, one the base already has, or one it deletes (red teams). With a
    // policy at the default path at the base, naming another file is a configuration error.
    let moved = false;
    // Compared where the file is read (an absolute path to the default, `./` spellings: the default).
    const other = explicit && inputs_repoPath(workspace, 'policy', policyValue) !== defaults_DEFAULTS.policy;
    if (other && policyFile.kind === 'pull') {
        moved = !policyFile.base;
        const atDefault = await files.read(inputs_repoPath(workspace, 'policy', defaults_DEFAULTS.policy));
        if (atDefault.kind === 'pull' && atDefault.base)
            throw new UsageError('policy', `policy: "${policyValue}" is named, but the base's policy is ${defaults_DEFAULTS.policy}: on a pull request the input is the pull request's to edit, so the gate reads the policy only where the base keeps it; leave the input out (or keep one policy, at ${defaults_DEFAULTS.policy})`);
    }
    let policy;
    // Where the policy is read (the base on a pull request) holds no file at the default path: a
    // team's policy at a near-miss path there must not leave the gate running without it, whatever
    // the pull request adds at the default path (docs/policy.md §11: "at the commit read").
    const unread = policyFile.kind === 'absent' || (policyFile.kind === 'pull' && !policyFile.base);
    if (unread && (!explicit || moved)) {
        const near = await files.nearMiss();
        if (near !== null)
            throw new UsageError('policy', `no policy file at ${policyValue}, but ${near} exists${policyFile.kind === 'pull' ? ' at the base commit' : ''}: move it to ${policyValue}, or name it with the policy input (policy: ${near})${policyFile.kind === 'pull' && policyFile.head ? `; this pull request adds ${policyValue}, which applies only once merged` : ''}`);
    }
    if (policyFile.kind === 'absent' || (policyFile.kind === 'pull' && !policyFile.base && !policyFile.head)) {
        if (explicit)
            throw new UsageError('path', `policy: "${policyValue}" does not exist (a missing default means no policy file; an explicit one must exist)`);
        policy = { kind: 'none' };
    }
    else
        policy = policyFile;
    const rootValue = input('trusted-root');
    let trustedRoot = null;
    if (rootValue !== '') {
        const root = await files.read(inputs_repoPath(workspace, 'trusted-root', rootValue));
        if (root.kind === 'absent')
            throw new UsageError('path', `trusted-root: "${rootValue}" does not exist`);
        trustedRoot = root;
    }
    // The files a trust: section names, read where its policy was read (the base, or the checkout), before the settings are built.
    // A file that cannot be used (outside the repository, a link, a folder) is kept as why: the policy's entry
    // naming it is the mistake, located there when the settings are built (the CLI's words).
    const trustFiles = new Map();
    const trustFilesChanged = [];
    const texts = policy.kind === 'file' ? [policy.file] : policy.kind === 'pull' ? [policy.base, policy.head] : [];
    if (texts.length > 0)
        await loadYamlParser();
    for (const t of texts) {
        if (!t)
            continue;
        for (const file of trustFilesNamed(t.text)) {
            const key = trustKey(file, t.commit);
            if (trustFiles.has(key))
                continue;
            const at = trustPathIn(workspace, file);
            const got = at.ok ? await files.readTrust(at.value) : { base: at, head: at };
            trustFiles.set(key, t.commit !== null && got.base !== null ? got.base : got.head);
            if (t.commit !== null && got.base !== null && textOf(got.base) !== textOf(got.head))
                trustFilesChanged.push(file);
        }
    }
    // The head (the checkout) read as the base will be once merged: no file at the default path, one at a near-miss path.
    const nearHead = policyFile.kind === 'pull' && !policyFile.head && !explicit ? nearMissOnDisk(workspace) : null;
    const headNearMiss = nearHead === null ? null : { found: nearHead, policy: defaults_DEFAULTS.policy };
    return { policy, trustedRoot, trustFiles, trustFilesChanged, headNearMiss };
}
/** The action's inputs → its settings, or the usage problem naming the input (never an exception). */
async function readSettings(input, ctx, env, files, now = new Date()) {
    let read;
    try {
        read = await readFiles(input, ctx, files);
    }
    catch (error) {
        if (error instanceof UsageError)
            return { ok: false, reason: { code: error.code, message: error.message } };
        throw error;
    }
    // The YAML parser only when there is a policy file to read (it is most of a cold start without one).
    if (read.policy.kind !== 'none')
        await loadYamlParser();
    const built = usage(() => settingsOf(input, ctx, env, read, now));
    if (!built.ok)
        return built;
    return { ok: true, value: await breakGlass(built.value, ctx, files) };
}
/**
 * The break-glass path (docs/policy.md §10): what a pull request's policy adds (exceptions,
 * grandfathered entries) applies now to run files present with the same bytes at the base. Their
 * blob ids are compared with the base's tree (git, or one API request), only when something is added.
 */
async function breakGlass(settings, ctx, files) {
    const gate = settings.gate;
    if (!ctx.pull || gate.policy.kind !== 'file')
        return settings;
    const head = gate.policyReview?.head ?? null;
    const added = head ? addedEntries(gate.policy, head) : null;
    const adds = added !== null && added.exceptions.length + added.grandfathered.length > 0;
    // The base's grandfathered audit files bind only the calls of runs the base holds (docs/policy.md §10).
    const history = gate.policy.grandfathered.some((g) => g.kind === 'audit');
    if (!adds && !history)
        return settings;
    const tree = await files.baseTree();
    // The base tree's paths are the repository's: the clone's top, when the workspace is a folder of it (a red team: proj/proj/…, nothing unchanged).
    const root = cloneTop(ctx.workspace) ?? external_node_path_default().resolve(ctx.workspace);
    const unchanged = tree.ok
        ? { ok: true, value: identicalAtBase(root, gate.cwd, tree.value) }
        : { ok: false, reason: `the base commit's files could not be compared (${tree.reason})` };
    const pinned = history ? historyOnly(gate.policy, unchanged) : { policy: gate.policy, findings: [] };
    if (!head || !added || !adds)
        return withPolicy(settings, pinned.policy, pinned.findings);
    let atBase;
    if (!tree.ok || !unchanged.ok)
        atBase = { ok: false, reason: `the base commit's files could not be compared (${tree.ok ? '' : tree.reason})` };
    else {
        const identical = unchanged.value;
        // A pull request that also moves evidence could make the failure it excuses (a record deleted, or
        // taken by a call it adds): what it adds applies now only when it carries its policy alone.
        // Every file the gate reads: the inputs, the attestations a walk finds, and the sidecars beside
        // each input (a Sigstore bundle or DSSE envelope the pull request adds changes what a run is: a red team).
        const read = ['runs', 'audit'].flatMap((role) => {
            const found = discover(gate[role], gate.cwd, gate.workspace, gate.explicit[role], role);
            const beside = found.files.flatMap((f) => [sigstoreOf, sidecarOf].filter((of) => (0,external_node_fs_.existsSync)(of(f.path))).map((of) => of(f.rel)));
            return [...found.files.map((f) => f.rel), ...found.attestations.map((f) => f.rel), ...beside];
        });
        // The inputs' positive paths and globs, as the repository names them.
        const scopes = [...gate.runs, ...gate.audit]
            .map((i) => i.trim())
            .filter((i) => i !== '' && !i.startsWith('!'))
            .map((i) => external_node_path_default().relative(root, external_node_path_default().resolve(gate.cwd, i)).split((external_node_path_default()).sep).join('/'));
        const policyPath = gate.policy.source ? gate.policy.source.path : defaults_DEFAULTS.policy;
        const moved = evidenceChangedSinceBase(root, tree.value, identical, identicalAtBase(root, root, tree.value), read, scopes, policyPath);
        atBase =
            moved === null
                ? { ok: true, value: identical }
                : {
                    ok: false,
                    reason: `this pull request also ${moved} (a break-glass pull request carries its policy alone: evidence it moves could make the failure it excuses)`,
                };
    }
    const glass = withBreakGlass(pinned.policy, head, added, atBase);
    return withPolicy(settings, glass.policy, [...pinned.findings, ...glass.findings], pinned.policy);
}
/** The settings with the policy in effect on this pull request and what it says of it. */
function withPolicy(settings, policy, findings, base = policy) {
    const gate = settings.gate;
    const review = gate.policyReview;
    if (findings.length === 0 && policy === gate.policy)
        return settings;
    return {
        ...settings,
        gate: {
            ...gate,
            policy,
            policyReview: {
                ...review,
                findings: [...(review?.findings ?? []), ...findings],
                head: review?.head ?? null,
                // The break-glass entries applied now: the change is measured from the base's policy without them.
                ...(base !== policy ? { before: base } : {}),
            },
        },
    };
}
/** An input given as a list, or null when it is empty or the default (then it was not given explicitly). */
function listGiven(raw, name) {
    const given = parseList(raw);
    return given.length === 0 || raw === defaults_DEFAULTS[name] ? null : given;
}
/** The inputs as the one settings builder takes them (the CLI's flags are its other source). */
function gateInputs(input, get, places, ctx, env, read, now) {
    const { workspace, cwd } = places;
    const pem = (name) => (get(name).trim() === '' ? [] : [{ name, pem: get(name) }]);
    const flag = (name) => (input(name) === '' ? null : parseBool(name, input(name)));
    return {
        names: {
            runs: 'runs',
            audit: 'audit',
            require: 'require',
            jobs: 'jobs',
            trustedKeys: 'trusted-keys',
            requireSignedRecords: 'require-signed-records',
            trustedProducers: 'trusted-producers',
            requireAttestedRuns: 'require-attested-runs',
            signerIdentities: 'trusted-signer-identities',
            producerIdentities: 'trusted-producer-identities',
            sourceRepository: 'GITHUB_REPOSITORY',
            sourceRefs: 'source-refs',
            issuer: 'certificate-oidc-issuer',
            trustedRoot: 'trusted-root',
            limitsPrefix: '',
        },
        cwd,
        workspace,
        runs: listGiven(input('runs'), 'runs'),
        audit: listGiven(input('audit'), 'audit'),
        allowUnmatchedRecords: flag('allow-unmatched-records'),
        strictObserved: flag('strict-observed'),
        maxFileSize: get('max-file-size'),
        maxLineSize: get('max-line-size'),
        jobs: get('jobs'),
        cache: null,
        writes: [],
        require: parseRules('require', get('require')),
        // PEM text, typically from a repository variable, so a pull request cannot change it.
        trustedKeys: pem('trusted-keys'),
        requireSignedRecords: parseBool('require-signed-records', get('require-signed-records')),
        trustedProducers: pem('trusted-producers'),
        requireAttestedRuns: parseBool('require-attested-runs', get('require-attested-runs')),
        // Identities beside keys (docs/keyless.md): the source repository is the one this workflow runs for.
        identities: {
            signerIdentities: parseList(get('trusted-signer-identities')),
            producerIdentities: parseList(get('trusted-producer-identities')),
            sourceRepository: env['GITHUB_REPOSITORY'] ?? null,
            sourceRefs: parseList(get('source-refs')),
            defaultRef: ctx.defaultBranch === null ? null : `refs/heads/${ctx.defaultBranch}`,
            issuer: get('certificate-oidc-issuer'),
        },
        trustedRoot: read.trustedRoot,
        policy: read.policy,
        now: (0,core_time/* instantOf */.B9)(now),
        trustGiven: TRUST_INPUTS.filter((name) => input(name) !== '' && input(name) !== defaults_DEFAULTS[name]),
        trustFile: (file, commit) => read.trustFiles.get(trustKey(file, commit)) ?? { ok: true, value: null },
        trustFilesChanged: read.trustFilesChanged,
        headNearMiss: read.headNearMiss,
    };
}
/** The trust inputs: given (a value other than action.yml's default) beside a policy's trust: section, a conflict. */
const TRUST_INPUTS = [
    'trusted-keys',
    'require-signed-records',
    'trusted-producers',
    'require-attested-runs',
    'trusted-signer-identities',
    'trusted-producer-identities',
    'source-refs',
    'certificate-oidc-issuer',
    'trusted-root',
];
function settingsOf(input, ctx, env, read, now) {
    refuseUnknownInputs(env, new Set(Object.keys(defaults_DEFAULTS)));
    // '' when not set: the runner fills in action.yml's default, a local run may not, so an empty value means the default (github-token aside).
    const get = (name) => input(name) || (name === 'github-token' ? '' : defaults_DEFAULTS[name]);
    const workspace = external_node_path_default().resolve(ctx.workspace);
    const cwd = directoryIn(workspace, workspace, get('working-directory'), 'working-directory');
    const rel = external_node_path_default().relative(workspace, cwd);
    const checkRunId = get('check-run-id');
    if (checkRunId !== '' && !/^[1-9]\d{0,18}$/.test(checkRunId)) {
        throw new UsageError('value', `check-run-id: "${checkRunId}" is not a check run id (pass \${{ job.check_run_id }} or leave it empty)`);
    }
    const checkName = get('check-name');
    if (checkName.length > 255)
        throw new UsageError('value', 'check-name: longer than 255 characters');
    /** A file the action writes: never out of the workspace through a link the checkout holds. */
    const output = (name) => {
        const value = get(name);
        return value === '' ? null : outputIn(workspace, workspace, value, name);
    };
    const sarifFile = output('sarif-file');
    const reportFile = output('report-file') ?? external_node_path_default().join(env['RUNNER_TEMP'] || (0,external_node_os_.tmpdir)(), 'receipt-gate', 'report.json');
    const vsa = verdictInputs(output('vsa-predicate'), output('vsa'), get('vsa-key'), env);
    const outputs = [
        ['report-file', reportFile],
        ['sarif-file', sarifFile],
        ['vsa-predicate', vsa?.predicate ?? null],
        ['vsa', vsa?.envelope ?? null],
    ];
    distinctOutputs(outputs);
    return {
        gate: buildSettings({ ...gateInputs(input, get, { workspace, cwd }, ctx, env, read, now), writes: given(outputs) }),
        annotations: parseChoice('annotations', get('annotations'), ['auto', 'check-run', 'workflow-commands', 'off']),
        annotate: parseChoice('annotate', get('annotate'), ['all', 'failures']),
        checkRunId: checkRunId === '' ? null : checkRunId,
        checkName,
        token: get('github-token'),
        summary: parseBool('summary', get('summary')),
        maxAnnotations: parseCount('max-annotations', get('max-annotations')),
        sarifFile,
        reportFile,
        prefix: rel.split((external_node_path_default()).sep).join('/'),
        vsa: vsa && {
            ...vsa,
            trustFiles: read.trustedRoot?.kind === 'file' && read.trustedRoot.file.commit === null ? [read.trustedRoot.file.path] : [],
        },
        cache: parseBool('cache', get('cache')),
    };
}

;// CONCATENATED MODULE: ./src/action/repo-files.ts
/**
 * Repository files the action must read where a pull request cannot edit them (docs/policy.md §1):
 * on an event whose checkout a pull request controls (`RunContext.pull`: pull_request and its
 * review events, pull_request_target, merge_group, workflow_run) the policy file and trust material are
 * read at the event's base commit (git when the commit is in the clone, else the contents API with
 * the job's token, one request each) and at the head (the checkout); elsewhere, the checkout's.
 * The base never falls back to the head: a base that cannot be read is a configuration error.
 */








/**
 * A file of the checkout (null: none), or why that file cannot be used, in words that name it: a
 * link (refused, as at the base), a folder or anything but a regular file.
 */
function headSide(workspace, rel) {
    const abs = external_node_path_default().resolve(workspace, rel);
    const link = linkOnDisk(workspace, rel);
    if (link !== null)
        return { ok: false, reason: link };
    if (!(0,external_node_fs_.existsSync)(abs))
        return { ok: true, value: null };
    const got = readNamedFile(abs, read_limits/* DEFAULT_LIMITS */.dR);
    if (!got.ok)
        return { ok: false, reason: `${rel}: ${got.reason}` };
    return { ok: true, value: { path: rel, commit: null, text: got.value.toString('utf8') } };
}
/** A side of a read that must be used: a file that cannot be is a configuration error naming it. */
function used(side) {
    if (!side.ok)
        throw new UsageError('file', side.reason);
    return side.value;
}
/** The repository's API path. */
const repoApi = (ctx) => `/repos/${encodeURIComponent(ctx.owner ?? '')}/${encodeURIComponent(ctx.repo ?? '')}`;
/** The contents API's base64: the alphabet, padding, and the line breaks GitHub puts every 60 characters. */
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;
/** GitHub's own words for a failed answer. */
const said = (data) => ((0,core_json/* isObject */.Gv)(data) && typeof data['message'] === 'string' ? `: ${data['message']}` : '');
/** A request of the base read; an unreachable API is a configuration error naming what was read, never an internal error. */
async function ask(api, what, where) {
    try {
        return await api.request('GET', where);
    }
    catch (error) {
        throw new UsageError('file', `${what} at the base commit cannot be read: the GitHub API did not answer (${(0,core_text/* messageOf */.bD)(error)})`);
    }
}
/**
 * Whether the base commit exists for the token (a 404 of the contents API is "no such file" only
 * then): one request. A 404 here is a commit the repository does not have, a wrong repository or a
 * token without access; any of them is a configuration error.
 */
async function commitExists(api, ctx, rel, commit) {
    const res = await ask(api, rel, `${repoApi(ctx)}/git/commits/${encodeURIComponent(commit)}`);
    if (res.status === 200)
        return;
    throw new UsageError('file', `${rel} at the base commit ${commit.slice(0, 12)}: the contents API answered 404 and the commit itself cannot be read (HTTP ${res.status}${said(res.data)}): a commit the repository does not have, another repository, or a token without access (permissions: contents: read); the base's policy is not known, so nothing is judged`);
}
/**
 * A file at a commit through the contents API: its text, null when the commit exists and has no such
 * file, or why that file cannot be used (a link, a folder, too large, no text); an API that does not
 * answer, or answers with an error, is a configuration error of the read.
 */
async function apiText(api, ctx, rel, commit) {
    const where = `${repoApi(ctx)}/contents/${rel.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(commit)}`;
    const res = await ask(api, rel, where);
    if (res.status === 404) {
        await commitExists(api, ctx, rel, commit);
        return { ok: true, value: null };
    }
    const data = res.data;
    const refuse = (reason) => ({ ok: false, reason });
    // A folder's contents are listed: an array.
    if (res.status === 200 && Array.isArray(data))
        return refuse(`${rel} at the base commit is a folder, not a file`);
    if (res.status !== 200 || !(0,core_json/* isObject */.Gv)(data))
        throw new UsageError('file', `${rel} at the base commit ${commit.slice(0, 12)} cannot be read through the contents API (HTTP ${res.status}${said(data)}); the job needs permissions: contents: read`);
    // A link whose target is a file comes back as the target (another path); any other link as a symlink.
    if (data['type'] === 'symlink' || (typeof data['path'] === 'string' && data['path'] !== rel))
        return refuse(`${linkReason(rel, rel)} (at the base commit ${commit.slice(0, 12)})`);
    if (data['type'] !== 'file')
        return refuse(`${rel} at the base commit is not a file (${(0,core_text/* quote */.hD)(String(data['type']), 40)})`);
    // GitHub answers a file of 1 to 100 MB with encoding "none" and no content.
    if (data['encoding'] === 'none')
        return refuse(`${rel} at the base commit is too large for the contents API (over 1 MB): keep it small`);
    if (data['encoding'] !== 'base64' || typeof data['content'] !== 'string' || !BASE64.test(data['content']))
        return refuse(`${rel} at the base commit cannot be read: the contents API's answer holds no base64 text (encoding ${(0,core_text/* quote */.hD)(String(data['encoding']), 40)}, content ${typeof data['content']})`);
    return { ok: true, value: Buffer.from(data['content'], 'base64').toString('utf8') };
}
async function apiTree(api, ctx, commit) {
    const res = await ask(api, 'the repository tree', `${repoApi(ctx)}/git/trees/${encodeURIComponent(commit)}?recursive=1`);
    const data = res.data;
    if (res.status !== 200 || !(0,core_json/* isObject */.Gv)(data) || !Array.isArray(data['tree']))
        return { ok: false, reason: `the tree of the base commit ${commit.slice(0, 12)} cannot be read (HTTP ${res.status}${said(data)})` };
    const paths = [];
    const blobs = new Map();
    for (const e of data['tree']) {
        if (!(0,core_json/* isObject */.Gv)(e) || typeof e['path'] !== 'string')
            continue;
        if (e['type'] !== 'tree')
            paths.push(e['path']);
        const id = e['sha'];
        const size = e['size'];
        if ((e['mode'] === '100644' || e['mode'] === '100755') &&
            typeof id === 'string' &&
            /^[0-9a-f]{40,64}$/.test(id) &&
            typeof size === 'number')
            blobs.set(e['path'], { id, size });
    }
    return { ok: true, value: { paths, blobs, truncated: data['truncated'] === true } };
}
/** A near-miss policy file at a commit through the API: the commit's tree, read once (recursive), or the folders' listings when it is truncated. */
async function apiNearMiss(api, ctx, commit, tree) {
    // A tree that cannot be read is never "no file at a near-miss path": the gate would run without the policy a team wrote (§11).
    if (!tree.ok)
        throw new UsageError('file', `the policy file: ${tree.reason}, so a policy at a near-miss path cannot be ruled out; the base's policy is not known, so nothing is judged`);
    const found = [...tree.value.paths].sort().find(isNearMissPolicy) ?? null;
    if (found !== null || !tree.value.truncated)
        return found;
    for (const folder of ['', '.github', '.github/receipt-gate']) {
        const list = await ask(api, folder || 'the repository root', `${repoApi(ctx)}/contents/${folder}?ref=${encodeURIComponent(commit)}`);
        // A folder the commit does not have (404), or a file or link where it would be (an object, not a list), lists
        // nothing; any other answer leaves the question open.
        if ((list.status === 404 || (list.status === 200 && (0,core_json/* isObject */.Gv)(list.data))) && folder !== '')
            continue;
        if (list.status !== 200 || !Array.isArray(list.data))
            throw new UsageError('file', `the policy file: the base commit's tree is larger than one API answer and ${folder || 'the repository root'} cannot be listed (HTTP ${list.status}${said(list.data)}), so a policy at a near-miss path cannot be ruled out; the base's policy is not known, so nothing is judged`);
        // A folder at a near-miss name is no file there (as `git ls-tree -r` and the tree say); a link or a submodule is.
        const names = list.data.flatMap((e) => (0,core_json/* isObject */.Gv)(e) && typeof e['path'] === 'string' && e['type'] !== 'dir' ? [e['path']] : []);
        const hit = names.sort().find(isNearMissPolicy);
        if (hit !== undefined)
            return hit;
    }
    return null;
}
/** How the action reads repository files: at the base and the head on a pull request or a merge queue, else in the checkout. */
function repoFiles(ctx, token, api) {
    const base = ctx.pull ? ctx.baseSha : null;
    const workspace = external_node_path_default().resolve(ctx.workspace);
    /** The base commit, checked: a commit id, never a ref name a tampered payload could give. */
    const baseCommit = (rel) => {
        if (base === null)
            throw new UsageError('file', `${rel}: a ${ctx.eventName} event without its base commit in the payload: the base's policy cannot be read`);
        if (!isCommitId(base))
            throw new UsageError('file', `${rel}: the event's base commit ${JSON.stringify(base.slice(0, 80))} is not a commit id (40 or 64 hex digits); the base's policy cannot be read`);
        return base;
    };
    const noToken = (rel, commit) => new UsageError('file', `${rel} must be read at the base commit ${commit.slice(0, 12)}, which is not in the clone, and there is no github-token to ask the contents API (give the job permissions: contents: read, or check out with fetch-depth: 0)`);
    // The base's tree through the API is read once, whoever asks (the near-miss check, the break-glass path).
    let tree = null;
    const treeOnce = async (commit) => (tree ??= (async () => apiTree(await api(), ctx, commit))());
    /** The file at the base commit (git when the commit is in the clone, else the contents API), or why that file cannot be used. */
    const baseSide = async (rel) => {
        const commit = baseCommit(rel);
        let got;
        if (resolveCommit(workspace, commit) !== null) {
            const read = readAtCommit(workspace, commit, external_node_path_default().resolve(workspace, rel));
            got = read.ok ? read : { ok: false, reason: `${rel} at the base commit ${commit.slice(0, 12)}: ${read.reason}` };
        }
        else {
            if (token === '' || !ctx.owner || !ctx.repo)
                throw noToken(rel, commit);
            got = await apiText(await api(), ctx, rel, commit);
        }
        if (!got.ok)
            return got;
        return { ok: true, value: got.value === null ? null : { path: rel, commit, text: got.value } };
    };
    const textOf = (side) => (side.ok ? { ok: true, value: side.value?.text ?? null } : side);
    return {
        base,
        async read(rel) {
            const head = used(headSide(workspace, rel));
            if (!ctx.pull)
                return head ? { kind: 'file', file: head } : { kind: 'absent' };
            return { kind: 'pull', base: used(await baseSide(rel)), head };
        },
        async readTrust(rel) {
            const head = textOf(headSide(workspace, rel));
            return { base: ctx.pull ? textOf(await baseSide(rel)) : null, head };
        },
        async nearMiss() {
            if (!ctx.pull)
                return nearMissOnDisk(workspace);
            const commit = baseCommit('the policy file');
            if (resolveCommit(workspace, commit) !== null) {
                const near = nearMissAtCommit(workspace, commit);
                if (!near.ok)
                    throw new UsageError('file', `the policy file: ${near.reason}, so a policy at a near-miss path at the base cannot be ruled out; the base's policy is not known, so nothing is judged`);
                return near.value;
            }
            if (token === '' || !ctx.owner || !ctx.repo)
                throw noToken('the policy file', commit);
            return apiNearMiss(await api(), ctx, commit, await treeOnce(commit));
        },
        async baseTree() {
            const commit = baseCommit('the base tree');
            if (resolveCommit(workspace, commit) !== null)
                return treeAtCommit(workspace, commit);
            if (token === '' || !ctx.owner || !ctx.repo)
                return { ok: false, reason: 'the base commit is not in the clone and there is no github-token' };
            const got = await treeOnce(commit);
            if (!got.ok)
                return got;
            // A truncated tree would call files absent that are there: nothing of the head applies then.
            if (got.value.truncated)
                return {
                    ok: false,
                    reason: 'the base tree is larger than one API answer (truncated); check out with fetch-depth: 0 so git can compare it',
                };
            return { ok: true, value: got.value.blobs };
        },
    };
}

// EXTERNAL MODULE: ./src/action/toolkit.ts
var toolkit = __nccwpck_require__(7096);
;// CONCATENATED MODULE: ./src/action/main.ts
/**
 * The GitHub Action's `run()`: inputs → settings → runGate → reporters (report file, SARIF,
 * annotations, job summary) → outputs → the gate. Runner protocol through the lazy toolkit
 * (toolkit.ts: @actions/core's protocol without its HTTP stack), or any object with its shape (tests
 * and `@github/local-action` pass @actions/core or their own); the Checks API through
 * Octokit (github-client.ts), loaded only when used. Reporting problems (a read-only token, an API
 * outage, a summary that cannot be written) degrade and never change the verdict; only the report's
 * `ok` fails the step. `src/action.ts` only calls `run()`.
 */























/** The job's part of a cache key: its id and what its gate reads (two gates of one run, or of two workflows, never share an archive). */
const jobKey = (settings, env) => (0,binding/* sha256Hex */.fg)(JSON.stringify([
    (env['GITHUB_WORKFLOW_REF'] ?? '').replace(/@.*$/, ''),
    env['GITHUB_JOB'] ?? '',
    env['RUNNER_OS'] ?? '',
    settings.prefix,
    settings.gate.runs,
    settings.gate.audit,
])).slice(0, 12);
/** Input paths relative to the working directory, as repository paths. */
const prefixed = (inputs, prefix) => new Map([...inputs].map(([p, h]) => [repoPath(prefix, p), h]));
/** Messages from the API or the system, as one inert log line (never a workflow command). */
const line = (s) => (0,report_text/* visible */.RK)(s).replace(/^::/, ':\u200b:');
/** A check run's page: the API's, else the one GitHub serves for that id. */
const runUrl = (ctx, owner, repo, run) => ({
    id: run.id,
    url: run.url ?? `${ctx.serverUrl.replace(/\/+$/, '')}/${owner}/${repo}/runs/${run.id}`,
});
async function annotate(core, settings, ctx, report, annotations, api, summary, now) {
    if (settings.annotations === 'off')
        return null;
    // The step's own failure message is one of the error lines GitHub shows.
    const failing = report.ok ? 0 : 1;
    const { owner, repo, headSha } = ctx;
    if (settings.annotations === 'workflow-commands' || settings.token === '' || !owner || !repo || !headSha) {
        const warned = settings.annotations === 'check-run';
        if (warned)
            core.warning('receipt-gate: annotations: check-run needs github-token and a repository context; falling back to workflow commands.');
        emitWorkflowCommands(annotations, core, { failure: failing, warning: warned ? 1 : 0 });
        return null;
    }
    // Most important first: a cap (rate limits: 50 per request) only ever leaves out the least.
    const located = annotations.filter((a) => a.path !== null);
    const sent = located.slice(0, settings.maxAnnotations);
    const capped = located.length - sent.length;
    const note = capped > 0
        ? `> ${capped} more annotation(s) were not posted (max-annotations: ${settings.maxAnnotations}); the job summary and the report list every call and finding.\n\n`
        : '';
    const totals = report.totals;
    const result = await publishCheckRun(await api(), {
        owner,
        repo,
        headSha,
        name: settings.checkName,
        checkRunId: settings.checkRunId,
        conclusion: report.ok ? 'success' : 'failure',
        completedAt: now(),
    }, {
        title: `${report.ok ? 'Passed' : 'Failed'}: ${(0,report_text/* levelCounts */.pS)(totals)}; ${totals.errors} error(s)`,
        summary: note + renderSummary(report, { ...summary, budgetBytes: 60_000 }).markdown,
    }, sent);
    // The Checks API needs a file for an annotation: findings about inputs (a path that matched
    // nothing, a rule that applies to no call) are annotated on the run by workflow commands.
    const about = annotations.filter((a) => a.path === null);
    if (result.ok) {
        emitWorkflowCommands(about, core, { failure: failing, warning: 0 });
        const w = result.value;
        core.info(`receipt-gate: ${sent.length} annotation(s) on check run ${w.id} (${w.requests} request(s))${capped > 0 ? `; ${capped} more not posted (max-annotations)` : ''}`);
        return runUrl(ctx, owner, repo, w);
    }
    const f = result.reason;
    const why = f.status === 403
        ? f.posted > 0
            ? 'a later update of the check run was refused (403)'
            : 'the token may not write checks (403; fork pull requests and read-only tokens cannot)'
        : `the Checks API failed (${f.status ?? 'network'}: ${line(f.message)})`;
    const went = f.run ? `; ${f.posted} annotation(s) are on check run ${f.run.id}` : '';
    core.warning(`receipt-gate: ${why}${went}; falling back to workflow commands${f.posted > 0 ? ` for the ${f.unposted.length} annotation(s) not yet posted` : ''}.`);
    emitWorkflowCommands(f.posted > 0 ? [...about, ...f.unposted] : annotations, core, { failure: failing, warning: 1 });
    return f.run && f.posted > 0 ? runUrl(ctx, owner, repo, f.run) : null;
}
const blobBase = (ctx) => ctx.owner && ctx.repo && ctx.headSha ? `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}/blob/${ctx.headSha}` : null;
/** The verdict attestation's files; null when written (or not asked for), else why they could not be. */
function verdict(core, settings, ctx, env, report, digest, inputs, reportText) {
    core.setOutput('vsa-predicate-file', '');
    core.setOutput('vsa-file', '');
    if (!settings.vsa)
        return null;
    const origin = {
        workspace: ctx.workspace,
        reportFile: settings.reportFile,
        reportDigest: digest,
        resourceUri: settings.vsa.resourceUri,
        // The policy file in effect names the policy; without one, the workflow that ran the gate does.
        policyUri: report.policy.source
            ? null
            : env['GITHUB_WORKFLOW_REF']
                ? `${ctx.serverUrl.replace(/\/+$/, '')}/${env['GITHUB_WORKFLOW_REF']}`
                : DEFAULT_POLICY_URI,
        inputs: prefixed(inputs, settings.prefix),
        version: VERSION,
        // Asked where the gate read (the working-directory: a clone that actions/checkout put at a `path:` too), paths relative to it.
        checkoutDiffers: checkoutDiffers(settings.gate.cwd, settings.vsa.commit, verdictRestsOn(settings.gate.cwd, inputs, settings.gate.policy, settings.vsa.trustFiles.map((p) => external_node_path_default().join(ctx.workspace, p)), [...settings.gate.runs, ...settings.gate.audit])),
    };
    // Written with the report it is about, all or none (a verdict that failed left the report: a red team).
    const result = writeVerdict(report, origin, { predicate: settings.vsa.predicate, envelope: settings.vsa.envelope, key: settings.vsa.key }, reportText === null ? [] : [[settings.reportFile, reportText]]);
    if (!result.ok)
        return result.reason.map((f) => f.message).join('; ');
    if (settings.vsa.predicate)
        core.setOutput('vsa-predicate-file', settings.vsa.predicate);
    if (settings.vsa.envelope)
        core.setOutput('vsa-file', settings.vsa.envelope);
    return null;
}
/**
 * A gate that could not judge (an input, the policy file, an output it cannot write): `result=error`
 * for `if: always()` steps, the failure, and a job summary that says why (a red required check must
 * not open on an empty page).
 */
async function configurationError(core, env, message) {
    core.setOutput('result', 'error');
    core.setFailed(`receipt-gate: ${message}`);
    if (!env['GITHUB_STEP_SUMMARY'])
        return;
    const longest = Math.max(0, ...[...message.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    try {
        await core.summary
            .addRaw(`## ⛔ receipt-gate: configuration error\n\nNothing was judged: the gate stopped before reading the evidence, so this check fails until the configuration is fixed.\n\n${fence}text\n${(0,report_text/* visible */.RK)(message)}\n${fence}\n`)
            .write();
    }
    catch (error) {
        core.warning(`receipt-gate: the job summary could not be written (${line((0,core_text/* messageOf */.bD)(error))}).`);
    }
}
/** The step's outputs from the report's totals, and the SARIF file when asked. */
function outputs(core, settings, report, digest) {
    const totals = report.totals;
    core.setOutput('result', report.ok ? 'pass' : 'fail');
    core.setOutput('calls', totals.calls);
    core.setOutput('verified', totals.verified);
    core.setOutput('observed-confirmed', totals.observed_confirmed);
    core.setOutput('asserted', totals.asserted);
    core.setOutput('no-effect', totals.no_effect);
    core.setOutput('weakest-level', totals.weakest_level ?? '');
    core.setOutput('policy-unmet', totals.policy_unmet);
    core.setOutput('policy-warned', totals.policy_warned);
    core.setOutput('pending', totals.pending);
    core.setOutput('effect-not-logged', totals.effect_not_logged);
    core.setOutput('errors', totals.errors);
    core.setOutput('warnings', totals.warnings);
    core.setOutput('report-file', settings.reportFile);
    core.setOutput('report-digest', digest);
    if (settings.sarifFile)
        writeWhole(settings.sarifFile, renderSarif(report, settings.prefix, VERSION));
    core.setOutput('sarif-file', settings.sarifFile ?? '');
}
/**
 * inputs → settings → the gate → the report file, the verdict, outputs, annotations, the job summary.
 * @param cwd the process's working directory (the workspace when GITHUB_WORKSPACE is unset)
 * @param now the clock (the check run's completed_at)
 */
async function run(core = (0,toolkit/* lazyCore */.K)(), env = process.env, cwd = process.cwd(), now = () => new Date(), cacheService = async (e) => (await __nccwpck_require__.e(/* import() */ 391).then(__nccwpck_require__.bind(__nccwpck_require__, 391))).actionsCacheService(e)) {
    const ctx = readContext(env, cwd);
    const token = core.getInput('github-token');
    // One client for the run, made when first needed: the base's policy (on a pull request) and the check run.
    let client = null;
    const api = () => (client ??= octokitApi(token, ctx.apiUrl, (m) => core.info(line(m))));
    const read = await readSettings((name) => core.getInput(name), ctx, env, repoFiles(ctx, token, api), now());
    if (!read.ok)
        return configurationError(core, env, `invalid input ${read.reason.message}`);
    const settings = read.value;
    const service = settings.cache ? await cacheService(env) : null;
    const build = (0,gate_cache/* buildOf */.Yy)(VERSION);
    const plan = planCache(settings.cache, settings.vsa !== null, ctx, env, service, build.tag, jobKey(settings, env));
    const prepared = await prepareCache(plan, service, api, ctx);
    core.info(prepared.said);
    const cache = prepared.cache ? { ...prepared.cache, build: build.key } : null;
    const gated = await runGate({ ...settings.gate, cache }, settings.vsa !== null);
    if (!gated.ok)
        return configurationError(core, env, `invalid input ${gated.reason.input ? `${gated.reason.input}: ` : ''}${gated.reason.message}`);
    const { report, inputs } = gated.value;
    if (gated.value.cache && cache)
        core.info((0,gate_cache/* cacheText */.e5)(gated.value.cache, cache.dir));
    const saved = await saveCache(plan, service);
    if (saved?.ok)
        core.info(saved.said);
    else if (saved)
        core.warning(`receipt-gate: the evidence cache was not saved (${line(saved.said)}); the next pull request reads every file.`);
    let digest = '';
    // With a verdict, the report is written beside it (all or none); else streamed to its file.
    const written = settings.vsa ? digestedPieces(report) : null;
    const reportText = written?.pieces ?? null;
    if (written)
        digest = written.digest;
    else
        try {
            digest = await writeJson(report, settings.reportFile);
        }
        catch (error) {
            return configurationError(core, env, (0,output/* cannotWriteText */.Gx)('report-file', settings.reportFile, error));
        }
    const unwritten = verdict(core, settings, ctx, env, report, digest, inputs, reportText);
    if (unwritten !== null)
        return configurationError(core, env, unwritten);
    try {
        outputs(core, settings, report, digest);
    }
    catch (error) {
        return configurationError(core, env, (0,output/* cannotWriteText */.Gx)('sarif-file', settings.sarifFile ?? '', error));
    }
    const summary = {
        prefix: settings.prefix,
        blobBase: blobBase(ctx),
        reportFile: settings.reportFile,
        budgetBytes: SUMMARY_BUDGET,
        // What was verified is the commit checked out (on a pull request, the merge commit); the check run stays on the head.
        commit: ctx.sha ?? ctx.headSha,
        merge: ctx.merge,
        inputs: { runs: settings.gate.runs, audit: settings.gate.audit },
        reportDigest: digest,
    };
    const annotations = buildAnnotations(report, settings.prefix, settings.annotate);
    const checkRun = await annotate(core, settings, ctx, report, annotations, api, summary, now);
    core.setOutput('check-run-id', checkRun?.id ?? '');
    core.setOutput('check-run-url', checkRun?.url ?? '');
    if (settings.summary && env['GITHUB_STEP_SUMMARY']) {
        try {
            await core.summary.addRaw(renderSummary(report, summary).markdown).write();
        }
        catch (error) {
            // A summary that cannot be written never changes the verdict.
            core.warning(`receipt-gate: the job summary could not be written (${line((0,core_text/* messageOf */.bD)(error))}); the report is in ${settings.reportFile}.`);
        }
    }
    const totals = report.totals;
    core.info(`receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}: ${totals.calls} call(s): ${(0,report_text/* levelCounts */.pS)(totals)}; ${totals.errors} error(s), ${totals.warnings} warning(s)`);
    if (!report.ok)
        core.setFailed(`receipt-gate: the gate failed with ${totals.errors} error(s); see the annotations and the job summary.`);
}


/***/ }),

/***/ 7096:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ lazyCore)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _report_text_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5655);
/**
 * The runner protocol the action speaks, without @actions/core's HTTP stack (undici and
 * http-client, which it loads at import even with no token): inputs from `INPUT_*`, outputs appended
 * to `GITHUB_OUTPUT` as @actions/core writes them (`name<<ghadelimiter_UUID`), the job summary
 * appended to `GITHUB_STEP_SUMMARY`, and the workflow commands (`::error file=…,line=…::message`)
 * with @actions/core's escaping. The same `Core` slice tests and `@github/local-action` pass their
 * own of; the Octokit client is still @actions/github's, loaded only when a token is used
 * (github-client.ts). A test holds every call's bytes equal to @actions/core's.
 */





/** As @actions/core writes a value: a string as it is, nothing as '', anything else as JSON. */
const commandValue = (value) => value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
const escapeData = (s) => commandValue(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
/** `::command key=value,…::message`, as @actions/core's issueCommand writes it. */
function issue(command, properties, message) {
    const given = Object.entries(properties).filter(([, v]) => v !== undefined && v !== null && v !== '');
    const props = given.length > 0 ? ` ${given.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',')}` : '';
    process.stdout.write(`::${command}${props}::${escapeData(message)}${node_os__WEBPACK_IMPORTED_MODULE_3__.EOL}`);
}
/** An annotation's properties as @actions/core names them in the command. */
const annotation = (p = {}) => ({
    title: p.title,
    file: p.file,
    line: p.startLine,
    endLine: p.endLine,
    col: p.startColumn,
    endColumn: p.endColumn,
});
const messageText = (m) => (m instanceof Error ? m.toString() : m);
/** The job summary: a buffer appended to GITHUB_STEP_SUMMARY's file on write, as @actions/core's does. */
class Summary {
    buffer = '';
    addRaw(text, addEOL = false) {
        this.buffer += text + (addEOL ? node_os__WEBPACK_IMPORTED_MODULE_3__.EOL : '');
        return this;
    }
    async write(options = {}) {
        const file = process.env['GITHUB_STEP_SUMMARY'];
        if (!file)
            throw new Error('Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.');
        try {
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.access)(file, node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.R_OK | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.W_OK);
        }
        catch {
            throw new Error(`Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`);
        }
        await (options.overwrite ? node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.writeFile : node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.appendFile)(file, this.buffer, { encoding: 'utf8' });
        this.buffer = '';
        return this;
    }
}
/** The runner protocol, lazily: nothing but node's own modules until a token is used. */
function lazyCore() {
    const summary = new Summary();
    return {
        getInput(name, options) {
            const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '';
            if (options?.required && !value)
                throw new Error(`Input required and not supplied: ${name}`);
            return options?.trimWhitespace === false ? value : value.trim();
        },
        setOutput(name, value) {
            const file = process.env['GITHUB_OUTPUT'];
            if (file) {
                const delimiter = `ghadelimiter_${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomUUID)()}`;
                const text = commandValue(value);
                if (name.includes(delimiter))
                    throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
                if (text.includes(delimiter))
                    throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
                if (!(0,node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync)(file))
                    throw new Error(`Missing file at path: ${file}`);
                (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.appendFileSync)(file, `${name}<<${delimiter}${node_os__WEBPACK_IMPORTED_MODULE_3__.EOL}${text}${node_os__WEBPACK_IMPORTED_MODULE_3__.EOL}${delimiter}${node_os__WEBPACK_IMPORTED_MODULE_3__.EOL}`, { encoding: 'utf8' });
                return;
            }
            process.stdout.write(node_os__WEBPACK_IMPORTED_MODULE_3__.EOL);
            issue('set-output', { name }, commandValue(value));
        },
        setFailed(message) {
            process.exitCode = 1;
            issue('error', {}, messageText(message));
        },
        error: (message, properties) => issue('error', annotation(properties), messageText(message)),
        warning: (message, properties) => issue('warning', annotation(properties), messageText(message)),
        notice: (message, properties) => issue('notice', annotation(properties), messageText(message)),
        // A plain line can carry evidence text (a path, a tool): runner commands in it are made inert.
        info: (message) => {
            process.stdout.write((0,_report_text_js__WEBPACK_IMPORTED_MODULE_4__/* .inert */ .tJ)(message) + node_os__WEBPACK_IMPORTED_MODULE_3__.EOL);
        },
        debug: (message) => issue('debug', {}, message),
        summary,
    };
}


/***/ }),

/***/ 3491:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  WA: () => (/* binding */ DIGEST_PATTERN),
  Ch: () => (/* binding */ binding),
  vI: () => (/* binding */ jcs),
  X9: () => (/* binding */ jcsWithout),
  sI: () => (/* binding */ sha256Digest),
  fg: () => (/* binding */ sha256Hex),
  fC: () => (/* binding */ subjectCanonical),
  n0: () => (/* binding */ unsafeInteger),
  Aj: () => (/* binding */ unsafeIntegerText),
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
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
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
    const canonical = subjectCanonical(subject);
    return canonical.ok ? { ok: true, digest: sha256Digest(canonical.text) } : canonical;
}
/**
 * JCS(subject): the text binding() hashes, for a reader that also needs it in a signed record's
 * payload (`jcsWithout`). A subject holding an integer beyond ±(2^53−1) is refused (`unsafeInteger`).
 */
function subjectCanonical(subject) {
    const unsafe = unsafeInteger(subject);
    if (unsafe !== null)
        return { ok: false, reason: unsafeIntegerText(unsafe, '') };
    const text = subjectText(subject);
    return text !== null ? { ok: true, text } : jcs(subject);
}
/**
 * The first number in a value (members in their order, depth first) whose magnitude is 2^53 or more,
 * or null. Every such double is an integer, and JSON.parse has rounded the text's digits to it
 * (12345678901234567890 and 12345678901234567891 are both read as 12345678901234567000), so a
 * subject holding one could bind a record written for another value: such a subject is refused,
 * never canonicalized. Integers within ±(2^53−1) and fractions are written as JCS writes them.
 * Walked with a stack of its own (a value as deep as the reader allows never reaches the call stack's end).
 */
function unsafeInteger(value) {
    // The common case first, with no path made: strings and small numbers only (one look per value).
    if (typeof value !== 'object' || value === null)
        return isUnsafe(value) ? { path: [], value: value } : null;
    const values = [value];
    let any = false;
    while (values.length > 0 && !any) {
        const v = values.pop();
        if (isUnsafe(v))
            any = true;
        else if (typeof v === 'object' && v !== null)
            for (const x of Array.isArray(v) ? v : Object.values(v))
                values.push(x);
    }
    if (!any)
        return null;
    const stack = [{ value, path: [] }];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        const v = next.value;
        if (isUnsafe(v))
            return { path: next.path, value: v };
        if (Array.isArray(v)) {
            for (let i = v.length - 1; i >= 0; i--)
                stack.push({ value: v[i], path: [...next.path, i] });
        }
        else if ((0,json/* isObject */.Gv)(v)) {
            // Entries, not a lookup by key: a key is input text. Pushed in reverse, so the first member is looked at first.
            const members = Object.entries(v);
            for (let i = members.length - 1; i >= 0; i--) {
                const [k, x] = members[i];
                stack.push({ value: x, path: [...next.path, k] });
            }
        }
    }
    return null;
}
const isUnsafe = (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER;
/** A path of keys and indices in words, after `root` (`action.target.key_id`, `target.ids[2]`, `target["a b"]`). */
function pathText(root, path) {
    let out = root;
    for (const step of path)
        out +=
            typeof step === 'number'
                ? `[${step}]`
                : /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(step)
                    ? `${out === '' ? '' : '.'}${step}`
                    : `[${JSON.stringify((0,core_text/* quote */.hD)(step, 64))}]`;
    return out;
}
/** Why a value holding an unsafe integer is refused, naming it by its path after `root`. */
const unsafeIntegerText = (unsafe, root) => `${pathText(root, unsafe.path) || 'the value'} is an integer beyond ±(2^53−1) (read as ${String(unsafe.value)}): a number that large is rounded when it is read, so two different values could bind alike; it is never bound`;
/**
 * JCS of an object without its member `omit` (a signed entry's payload P: the entry without its
 * `signature`), the same text as `jcs` of a copy without that member. `known`: a member whose JCS
 * text was already made (a record's subject, for its binding), used as it is instead of written
 * again. Per signed record it saves a copy of the record and a second canonical form of its subject
 * (bench/HISTORY.md, "Signed records: the payload").
 */
function jcsWithout(object, omit, known) {
    const written = isPlainObject(object) && typeof object.toJSON !== 'function' ? membersText(object, 0, omit, known) : null;
    if (written !== null)
        return { ok: true, text: written };
    // Anything the written form leaves to canonicalize: a copy without the member, judged as jcs judges it.
    const copy = {};
    for (const k of Object.keys(object))
        if (k !== omit)
            Object.defineProperty(copy, k, { value: object[k], enumerable: true, writable: true, configurable: true });
    return jcs(copy);
}
/** The written JCS text of a plain object at `depth`, but its member `omit` (`known`'s text for its member), or null for canonicalize to decide. */
function membersText(value, depth, omit, known) {
    // Entries, not a lookup by key: a key is input text (`__proto__` included).
    const members = Object.entries(value);
    sortByKey(members);
    const parts = [];
    for (const [k, x] of members) {
        // As JSON.stringify and canonicalize leave them out: a member with no JSON form (undefined, a function).
        if (k === omit || x === undefined || typeof x === 'function' || typeof x === 'symbol')
            continue;
        if (!k.isWellFormed())
            return null;
        const t = known !== undefined && k === known.key ? known.text : jsonText(x, depth + 1);
        if (t === null)
            return null;
        parts.push(`${JSON.stringify(k)}:${t}`);
    }
    return `{${parts.join(',')}}`;
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
    if (Object.keys(subject).length !== 3 || !(0,json/* hasOwn */.$3)(subject, 'action_class') || !(0,json/* hasOwn */.$3)(subject, 'verb') || !(0,json/* hasOwn */.$3)(subject, 'target'))
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
    return membersText(value, depth, null);
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
const isPlainObject = (v) => (0,json/* isObject */.Gv)(v) && Object.getPrototypeOf(v) === Object.prototype;


/***/ }),

/***/ 4637:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $t: () => (/* binding */ placeOf),
/* harmony export */   Eg: () => (/* binding */ compareFindings),
/* harmony export */   HC: () => (/* binding */ byLocation),
/* harmony export */   TG: () => (/* binding */ FINDINGS),
/* harmony export */   f2: () => (/* binding */ FINDING_CODES),
/* harmony export */   gk: () => (/* binding */ finding),
/* harmony export */   uY: () => (/* binding */ inputFinding)
/* harmony export */ });
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
    record_pending: {
        severity: 'notice',
        title: 'Audit record waits for its run',
        help: "A record binds no call, and its own file holds a usable coverage statement of its scope (provider, action, an actor, its repository or organisation) whose window has ended less than the policy's pending ago: the agent's run may arrive by another pull request. Once pending has run out it is record_unmatched.",
    },
    record_untrusted: {
        severity: 'error',
        option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
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
        option: { when: 'for an exception a pull request adds, until it merges', severity: 'notice' },
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
        help: 'A call claims observed_confirmed, but no later successful read of the same target in the run confirms it (decided after it and, where the run says, begun after it was decided).',
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
        help: 'A server log shows a tool call started or answered with no decision, or an event lost: a side effect may have happened that no decision records.',
        about: 'file',
    },
    run_unattested: {
        severity: 'error',
        option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
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
        help: 'The run-artifact inputs matched no file, or their files hold not one decision (an empty capture, runs and audit swapped); a gate that sees nothing must not pass.',
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
    coverage_empty: {
        severity: 'warning',
        title: 'Coverage statement covers no call',
        help: 'A coverage statement whose actors list is empty, that names no organisation or repository (GitHub), or that lists an action no class the gate binds has (or another provider than its class): it checks nothing of what it names, so no call is held to it.',
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
    under_claimed: {
        severity: 'notice',
        title: 'Under-claimed',
        help: 'Calls earned a higher level than they claim (verified by a later export: the normal state with nightly exports); counted in one notice.',
    },
    signatures_unchecked: {
        severity: 'warning',
        title: 'Signatures not checked',
        help: 'Audit records are signed, but no trusted key or identity is configured: their signatures were not checked, and they count as unsigned ones would (give trusted-keys, and require-signed-records).',
    },
    skipped_object: { severity: 'notice', title: 'Skipped object', help: 'Objects of other artifact kinds were skipped.', about: 'file' },
    no_decisions: {
        severity: 'notice',
        title: 'No decisions',
        help: 'A run artifact (or a verified evidence bundle) holds no tool decisions.',
        about: 'file',
    },
    run_not_started: {
        severity: 'notice',
        title: 'Server never started',
        help: "A captured log is assay-mcp-server's own output from a start that failed (a startup_failure line, or an error after server_start): the run contributes no calls; its reason_code and next step say what to fix.",
        about: 'file',
    },
    no_records: { severity: 'notice', title: 'No records', help: 'An audit export holds no audit record.', about: 'file' },
    no_match: {
        severity: 'notice',
        option: {
            when: 'for an input given explicitly, and for a default folder missing beside a folder of a near name, such as `.assay/audits`: what that holds is not read',
            severity: 'error',
        },
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
    // A place in a file of another commit (a pull request's base, --policy-ref) names that commit in words too:
    // the file a reader has open is not the one the finding is about (docs/policy.md §8).
    if (loc.commit !== undefined) {
        const short = loc.commit.slice(0, 12);
        return { ...base, message: message.includes(short) ? message : `${message} (${loc.file} at commit ${short})`, commit: loc.commit };
    }
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
/* harmony export */   $3: () => (/* binding */ hasOwn),
/* harmony export */   Gv: () => (/* binding */ isObject),
/* harmony export */   gx: () => (/* binding */ str),
/* harmony export */   mz: () => (/* binding */ memberAt)
/* harmony export */ });
/* unused harmony exports wholeNumber, obj */
/**
 * Values from JSON.parse, read safely: an own-property test that `__proto__` cannot fool, and the one
 * object check every reader and the core use. Parsed objects are never copied or spread.
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o, k) => Object.hasOwn(o, k);
/** A string member, or null (absent, empty or not a string). */
const str = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return typeof given === 'string' && given !== '' ? given : null;
};
/** A whole-number member (GitHub's issue and pull request numbers, comment ids; HTTP codes), or null. */
const wholeNumber = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return typeof given === 'number' && Number.isSafeInteger(given) && given > 0 ? given : null;
};
/** An object member, or null. */
const obj = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return isObject(given) ? given : null;
};
/** The value at a path of member names and list indexes, through own members only; undefined when there is none. */
function memberAt(value, path) {
    let node = value;
    for (const segment of path) {
        if (Array.isArray(node) && /^\d{1,6}$/.test(segment))
            node = node[Number(segment)];
        else if (isObject(node) && Object.hasOwn(node, segment))
            node = node[segment];
        else
            return undefined;
    }
    return node;
}


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

/***/ 432:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Uo: () => (/* binding */ annotationRank),
/* harmony export */   oC: () => (/* binding */ SEVERITIES),
/* harmony export */   ps: () => (/* binding */ SEVERITY_TABLE)
/* harmony export */ });
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
/* harmony export */   RK: () => (/* binding */ visible),
/* harmony export */   YC: () => (/* binding */ editDistance),
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
// C0/C1 controls, DEL, line/paragraph separators, bidi overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Escape control and bidi characters as \uXXXX so they are shown, never interpreted. */
function visible(text) {
    return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
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
/* harmony export */   ag: () => (/* binding */ rfc3339)
/* harmony export */ });
/* unused harmony exports fromEpochNumber, utcAsWritten, fromEpochNanos */
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
    // Each field read directly (no array per parse: every record's signed_at and every event's time come through here).
    const y = Number(match[1]);
    const mo = Number(match[2]);
    const d = Number(match[3]);
    const h = Number(match[4]);
    const mi = Number(match[5]);
    const s = Number(match[6]);
    const date = badDate(y, mo, d);
    if (date)
        return { ok: false, reason: `is not a calendar date: ${date}` };
    if (h > 23)
        return { ok: false, reason: `has hour ${h}, which does not exist (00 to 23)` };
    if (mi > 59)
        return { ok: false, reason: `has minute ${mi}, which does not exist (00 to 59)` };
    if (s > 60)
        return { ok: false, reason: `has second ${s}, which does not exist (00 to 59; 60 only for a leap second)` };
    if (options.utc && !match[8])
        return { ok: false, reason: 'is not a UTC time (it must end in Z)' };
    let offset = 0;
    if (!match[8]) {
        const [oh, om] = [Number(match[10]), Number(match[11])];
        if (oh > 23 || om > 59)
            return { ok: false, reason: `has offset ${match[9]}${match[10]}:${match[11]}, beyond ±23:59` };
        offset = (match[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
    }
    // A leap second is inserted at the end of a UTC day: its local minute is UTC's 23:59 (RFC 3339 §5.7: 15:59:60-08:00).
    if (s === 60 && (((h * 60 + mi - offset / 60) % 1440) + 1440) % 1440 !== 1439)
        return { ok: false, reason: 'has second 60 where none is (a leap second is only in the last minute of a UTC day: 23:59:60Z)' };
    const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + Math.min(s, 59) - offset;
    // A leap second (23:59:60, at any fraction) is its day's last instant: 23:59:59 and nine nines (or as many as it was
    // written with), inside a window that ends at the next midnight and after every 23:59:59 of its precision.
    if (s === 60)
        return { ok: true, value: { seconds, fraction: '9'.repeat(Math.max(9, match[7]?.length ?? 0)) } };
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
 * → `…T00:00:00.50Z`): what a statement says its window was. A leap second is written as the instant
 * it is read as and filtered on (`23:59:60Z` → `23:59:59.999999999Z`): written `23:59:59Z`, a
 * statement's `since` would claim the second before it, whose entries were skipped as outside the
 * window (a red team).
 */
function utcAsWritten(text) {
    const day = parseDay(text);
    if (day)
        return day.ok ? { ok: true, value: rfc3339(day.value) } : day;
    const parsed = parseRfc3339(text);
    if (!parsed.ok)
        return parsed;
    const shape = SHAPE.exec(text);
    if (shape?.[6] === '60')
        return { ok: true, value: rfc3339(parsed.value) };
    const digits = shape?.[7];
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
/** The latest instant an epoch count may name: 9999-12-31T23:59:59Z (RFC 3339 has four-digit years). */
const MAX_EPOCH_SECONDS = 253_402_300_799;
/**
 * OpenTelemetry's time: nanoseconds since the epoch, a decimal string (OTLP JSON writes 64-bit
 * integers so) or a whole number; null for anything else, 0 (unset) and years past 9999.
 */
function fromEpochNanos(given) {
    // A bare number past 2^53 has lost its last nanoseconds already; its whole part is still the time.
    const text = typeof given === 'string'
        ? given
        : typeof given === 'number' && Number.isInteger(given) && given > 0 && given < 1e21
            ? BigInt(given).toString()
            : '';
    if (!/^[1-9]\d{0,20}$/.test(text))
        return null;
    const padded = text.padStart(10, '0');
    const seconds = Number(padded.slice(0, -9));
    if (seconds > MAX_EPOCH_SECONDS)
        return null;
    return { seconds, fraction: trimZeros(padded.slice(-9)) };
}


/***/ }),

/***/ 9597:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   J5: () => (/* binding */ refused),
/* harmony export */   M5: () => (/* binding */ TRUST_CODE_NAMES),
/* harmony export */   kg: () => (/* binding */ combine),
/* harmony export */   lS: () => (/* binding */ warnable),
/* harmony export */   x3: () => (/* binding */ NONE)
/* harmony export */ });
/* unused harmony export refusalText */
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
    history_only: {
        means: "a grandfathered audit file's record (trust not asked of it for the runs the base holds) that would bind a call the pull request adds or changes: held to its own trust, an error under any trust mode",
        enforced: true,
    },
};
const TRUST_CODE_NAMES = Object.keys(TRUST_CODES);
const NONE = { kind: 'none' };
/** Whether `trust.mode: warn` may make the refusal a warning (a rollout's gap), or it stays an error (a replay). */
const warnable = (code) => TRUST_CODES[code].enforced !== true;
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
    /** Binds no call yet, and its export is younger than the policy's pending: its run may still arrive (docs/policy.md §12). */
    awaiting_run: {
        finding: 'record_pending',
        unusable: false,
        snag: 'binds no call yet (its run may still arrive)',
        more: 'awaiting their run',
    },
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

/***/ 2837:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   M_: () => (/* binding */ store),
/* harmony export */   N4: () => (/* binding */ tally),
/* harmony export */   TE: () => (/* binding */ lookUp),
/* harmony export */   Yy: () => (/* binding */ buildOf),
/* harmony export */   bj: () => (/* binding */ setupKey),
/* harmony export */   e5: () => (/* binding */ cacheText),
/* harmony export */   iQ: () => (/* binding */ entryShape),
/* harmony export */   k2: () => (/* binding */ entryKey),
/* harmony export */   rs: () => (/* binding */ ENTRY_NAME),
/* harmony export */   yL: () => (/* binding */ besideKey)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_url__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _core_binding_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(3491);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(6153);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(2020);
/* harmony import */ var _read_wire_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(2155);
/* harmony import */ var _report_output_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(9045);
/**
 * The evidence cache: what one input file contributes (gate/evidence.ts, trust decided) is a pure
 * function of its bytes, the bytes beside it (its attestation sidecars), its path, and the read
 * set-up (limits, hashing, every trust setting and root) of one build. An entry is stored under the
 * sha256 of all of these, so any changed byte, setting or build is another key: a miss.
 *
 * An entry is one file, `<key>.json`: a header line (`{"schema","key","sha256"}`: the key it was
 * stored under and the sha256 of the body) and the body, the reading thread's encoding
 * (read/wire.ts). It is used only when its header names the key asked for, the body's digest
 * matches, and the body passes its shape check (schemas/evidence-cache-entry.schema.json and the
 * vocabularies); otherwise it is ignored, said, and the file is read (and its entry written again).
 * Nothing here fails a gate: a cache that cannot be read or written only costs time.
 *
 * Who writes the directory is trusted like the code that runs the gate: the action fills it only
 * from archives the default branch saved, their entries checked against their key (action/cache.ts),
 * and a verdict (`--vsa`) never reads it. A folder that holds an input is a usage error (gate.ts).
 */









const CACHE_SCHEMA = 'receipt-gate.evidence-cache.v2';
/**
 * JSON of the set-up, with sets as sorted lists. Anything that is not plain data (a key object, a
 * class instance) throws: a setting JSON would write as `{}` must never make two set-ups one key.
 */
function plain(_key, value) {
    if (value instanceof Set)
        return [...value].map(String).sort();
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return value;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
        throw new Error(`the read set-up holds a ${proto?.constructor?.name ?? 'value'} the cache key cannot name`);
    return value;
}
/**
 * The running build: its version and the digest of every input it was built from
 * (`build-inputs.sha256`, `sha256:<hex>`, written beside the bundles by scripts/build.mjs), so a
 * gate rebuilt from other sources under the same version never reads the entries of another
 * (`unbuilt` when run from the sources: tests). `key`: in full, for the entries' keys; `tag`: short,
 * for the action's archive keys.
 */
function buildOf(version) {
    const here = node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname((0,node_url__WEBPACK_IMPORTED_MODULE_3__.fileURLToPath)(import.meta.url));
    for (const dir of [here, node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname(here)]) {
        let text;
        try {
            text = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync)(node_path__WEBPACK_IMPORTED_MODULE_2___default().join(dir, 'build-inputs.sha256'), 'utf8').trim();
        }
        catch {
            continue;
        }
        const digest = /^sha256:([0-9a-f]{64})$/.exec(text)?.[1];
        if (digest)
            return { key: `${version}+${digest}`, tag: `${version}-${digest.slice(0, 12)}` };
    }
    return { key: `${version}+unbuilt`, tag: `${version}-unbuilt` };
}
/** The part of every key that the whole run shares: the build (`buildOf`) and the read set-up (every member of it). */
const setupKey = (build, setup) => (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(JSON.stringify([CACHE_SCHEMA, build, setup], plain));
/** What a file beside an input adds to its key: absent, refused (with why), or its bytes' digest. */
function besideKey(beside) {
    if (beside.kind === 'none')
        return 'none';
    if (beside.kind === 'refused')
        return `refused:${beside.reason}`;
    return `sha256:${beside.sha256()}`;
}
/** One file's key: the set-up, its role and path (findings name it), its bytes' digest and what is beside it. */
const entryKey = (cache, role, rel, sha256, beside) => (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(JSON.stringify([cache.setupKey, role, rel, sha256, beside]));
/** An entry's file name: its key (64 hex digits) and `.json`; nothing else in the folder is one. */
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
const entryPath = (cache, key) => node_path__WEBPACK_IMPORTED_MODULE_2___default().join(cache.dir, `${key}.json`);
/** An entry larger than this is not read (nor written): it is no entry the gate wrote for one file within the limits. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;
/** An entry's bytes, read with its own buffer (the file being looked up is in this thread's read buffer), or null when absent; a link is never followed. */
function readEntry(file) {
    let fd;
    try {
        // Never blocking (a FIFO in its place would hang the gate), never through a link.
        fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.openSync)(file, node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_RDONLY | (node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NOFOLLOW ?? 0) | (node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NONBLOCK ?? 0));
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return null;
        return { refused: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})` };
    }
    try {
        const st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.fstatSync)(fd);
        if (!st.isFile())
            return { refused: 'it is not a regular file' };
        if (st.size > MAX_ENTRY_BYTES)
            return { refused: `it is larger than ${MAX_ENTRY_BYTES} bytes` };
        const buf = Buffer.allocUnsafe(st.size);
        let got = 0;
        while (got < st.size) {
            const n = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readSync)(fd, buf, got, st.size - got, null);
            if (n === 0)
                break;
            got += n;
        }
        return buf.subarray(0, got);
    }
    catch (error) {
        return { refused: `it cannot be read (${error.code ?? 'error'})` };
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.closeSync)(fd);
    }
}
let shapeCheck = null;
/** The entries' shape check, loaded once per thread and only when a cache is read (its generated code weighs 100 KB). */
const entryShape = () => (shapeCheck ??= __nccwpck_require__.e(/* import() */ 971).then(__nccwpck_require__.bind(__nccwpck_require__, 1971)).then((m) => m.cacheEntry));
/** The entry stored under `key`, checked, or why an entry there was ignored (null reason: there was none). */
function lookUp(cache, key, shape) {
    const got = readEntry(entryPath(cache, key));
    if (got === null)
        return { ok: false, reason: null };
    if ('refused' in got)
        return { ok: false, reason: got.refused };
    const newline = got.indexOf(10);
    if (newline < 0)
        return { ok: false, reason: 'it has no header line (truncated?)' };
    let header;
    try {
        header = JSON.parse(got.subarray(0, newline).toString('utf8'));
    }
    catch {
        return { ok: false, reason: 'its header line is not JSON' };
    }
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_7__/* .str */ .gx)(header, 'schema') !== CACHE_SCHEMA)
        return { ok: false, reason: `its header is not ${CACHE_SCHEMA}` };
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_7__/* .str */ .gx)(header, 'key') !== key)
        return { ok: false, reason: 'its header names another key' };
    const body = got.subarray(newline + 1);
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_7__/* .str */ .gx)(header, 'sha256') !== (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(body))
        return { ok: false, reason: "its body's sha256 is not the one its header names (truncated or altered)" };
    const text = body.toString('utf8');
    const checked = (0,_read_wire_js__WEBPACK_IMPORTED_MODULE_5__/* .checkWire */ .WT)(text, shape);
    return checked.ok
        ? { ok: true, value: { text, checked: checked.value } }
        : { ok: false, reason: `its body fails its check: ${checked.reason}` };
}
/** Store a file's encoded evidence (read/wire.ts) under `key`: written beside, then renamed into place (a reader never sees half an entry). Why not, or null. */
function store(cache, key, wire) {
    const body = Buffer.from(wire, 'utf8');
    if (body.length > MAX_ENTRY_BYTES)
        return `its entry would be larger than ${MAX_ENTRY_BYTES} bytes`;
    const sha256 = (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(body);
    const header = Buffer.from(`${JSON.stringify({ schema: CACHE_SCHEMA, key, sha256 })}\n`, 'utf8');
    const final = entryPath(cache, key);
    const temporary = `${final}.${process.pid}.${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}.tmp`;
    try {
        (0,_report_output_js__WEBPACK_IMPORTED_MODULE_6__/* .makeDirs */ .X2)(cache.dir);
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.writeFileSync)(temporary, Buffer.concat([header, body]), { flag: 'wx' });
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.renameSync)(temporary, final);
        return null;
    }
    catch (error) {
        try {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync)(temporary, { force: true });
        }
        catch {
            // what is left is a .tmp file no look-up reads
        }
        return `the entry could not be written (${error.code ?? String(error)})`;
    }
}
function tally(notes) {
    const ignored = notes.filter(([, n]) => n.ignored !== undefined);
    const unstored = notes.filter(([, n]) => n.unstored !== undefined);
    const first = (list, why) => list[0] ? `${list[0][0]}: ${why(list[0][1])}` : null;
    return {
        files: notes.length,
        hits: notes.filter(([, n]) => n.hit).length,
        stored: notes.filter(([, n]) => !n.hit && n.unstored === undefined).length,
        ignored: ignored.length,
        firstIgnored: first(ignored, (n) => n.ignored),
        unstored: unstored.length,
        firstUnstored: first(unstored, (n) => n.unstored),
    };
}
/** The run's cache in one line (the CLI's stderr, the action's log). */
function cacheText(t, dir) {
    const parts = [`${t.hits} of ${t.files} file(s) from the cache`, `${t.stored} read and stored`];
    if (t.ignored > 0)
        parts.push(`${t.ignored} entr${t.ignored === 1 ? 'y' : 'ies'} ignored and the file read (the first: ${t.firstIgnored})`);
    if (t.unstored > 0)
        parts.push(`${t.unstored} not stored (the first: ${t.firstUnstored})`);
    // Files' names are the evidence's: shown, never interpreted (a red team: a name holding a line break and a workflow command).
    return (0,_core_text_js__WEBPACK_IMPORTED_MODULE_8__/* .visible */ .RK)(`receipt-gate: cache ${dir}: ${parts.join('; ')}`);
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
// EXTERNAL MODULE: ./src/read/utf8.ts
var utf8 = __nccwpck_require__(8145);
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
        const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end);
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
    if (byteOrderMark(text, sink))
        return;
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
/** Whether the text begins with a byte-order mark, refused at 1:1 (never read as part of the first line). */
function byteOrderMark(text, sink) {
    if (text.charCodeAt(0) !== 0xfeff)
        return false;
    sink.error({ offset: 0 }, 'byte-order mark (U+FEFF) is not allowed: save the file as UTF-8 without a byte-order mark');
    return true;
}
/**
 * The lines of a server log (`.log`, docs/assay-server-logs.md): a line whose first character is `{`
 * must be one strict JSON document (a truncated last line is an error, never a skip); any other
 * non-blank line is text for the reader to judge; blank lines are nothing.
 */
function* logLines(text, options, sink) {
    // A log saved with a BOM (PowerShell, an editor) read its first line as text, then "no server_start line": say what it is.
    if (byteOrderMark(text, sink))
        return;
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
        const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end);
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
            const parsed = (0,strict/* parseStrict */.z3)(text, opts, at, end.value);
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
    const digest = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(only) ? only['digest'] : undefined;
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(only) || !(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(digest) || Object.keys(digest).length !== 1 || typeof digest['sha256'] !== 'string') {
        return { ok: false, reason: 'the subject must carry exactly one digest, sha256 (a second entry would let another artifact match)' };
    }
    return { ok: true, value: { name: only['name'], sha256: digest['sha256'] } };
}
/** What a JSON object given where an envelope belongs is instead, when it is something the gate knows. */
function notAnEnvelope(value) {
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(value, 'verifier') && (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(value, 'verificationResult'))
        return 'a Verification Summary predicate (what --vsa-predicate writes for actions/attest; the signed verdict is what --vsa writes)';
    if (value['_type'] === STATEMENT_TYPE)
        return 'an unsigned in-toto Statement (its DSSE envelope carries it as the payload)';
    if (typeof value['mediaType'] === 'string' && value['mediaType'].startsWith('application/vnd.dev.sigstore.bundle'))
        return 'a Sigstore bundle (check it by identity: --certificate-identity)';
    return null;
}
/** One envelope's shape: payloadType and payload strings, payload standard base64, a non-empty signatures array of {keyid, sig}. */
function readEnvelope(value, loc) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(value))
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
        if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(s))
            return { ok: false, reason: `signatures[${i}] is not an object` };
        const keyid = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(s, 'keyid') ? s['keyid'] : '';
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

/***/ 3853:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   HA: () => (/* binding */ offsetAt),
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
/** The first offset at or after `i` that is not JSON whitespace. */
function skipWs(text, i) {
    let at = i;
    for (let c = text.charCodeAt(at); c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB; c = text.charCodeAt(++at))
        ;
    return at;
}
/**
 * Where the member at `path` (keys and indices) of the JSON value that starts at `start` begins, or
 * null when there is none: a place for a problem a reader finds in a parsed value (a subject's
 * number, read/surface.ts). The text is strict JSON already (keys are unique), so each member passed
 * over is scanned alone (`firstValueEnd`); only the members before the path's are, and only when asked.
 */
function offsetAt(text, start, path, options) {
    let i = skipWs(text, start);
    // Past one value and the comma after it, or null when none follows (the container ends, or the text is not what was parsed).
    const pastMember = () => {
        const end = firstValueEnd(text, options, i);
        if (!end.ok)
            return false;
        i = skipWs(text, end.value);
        if (text.charCodeAt(i) !== C.COMMA)
            return false;
        i = skipWs(text, i + 1);
        return true;
    };
    for (const step of path) {
        const open = text.charCodeAt(i);
        i = skipWs(text, i + 1);
        if (open === C.LBRACKET && typeof step === 'number') {
            for (let k = 0; k < step; k++)
                if (!pastMember())
                    return null;
            if (text.charCodeAt(i) === C.RBRACKET)
                return null;
        }
        else if (open === C.LBRACE && typeof step === 'string') {
            for (;;) {
                if (text.charCodeAt(i) !== C.QUOTE)
                    return null;
                const keyEnd = firstValueEnd(text, options, i);
                if (!keyEnd.ok)
                    return null;
                const key = JSON.parse(text.slice(i, keyEnd.value));
                i = skipWs(text, keyEnd.value);
                if (text.charCodeAt(i) !== C.COLON)
                    return null;
                i = skipWs(text, i + 1);
                if (key === step)
                    break;
                if (!pastMember())
                    return null;
            }
        }
        else
            return null;
    }
    return i;
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
  z3: () => (/* binding */ parseStrict)
});

// UNUSED EXPORTS: jsonOrText, strictValue

// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/read/limits.ts
var limits = __nccwpck_require__(5826);
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
        if (!(0,json/* isObject */.Gv)(given) || !(0,json/* hasOwn */.$3)(given, k))
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
/** The limits of JSON text inside a document: the depth of any document (no option names another). */
const EMBEDDED = { maxDepth: limits/* DEFAULT_LIMITS */.dR.maxDepth };
/**
 * A JSON text embedded in another document (a CloudTrail event in a lookup-events entry, a tool's
 * arguments in a span, an MCP result's text content), read as strictly as its document: a key given
 * twice is refused, never the last one taken, since two readers would then see two values.
 */
function strictValue(text) {
    const parsed = parseStrict(text, EMBEDDED);
    return parsed.ok ? { ok: true, value: parsed.value.json } : { ok: false, reason: parsed.reason.message };
}
/**
 * Text that may hold JSON (a tool's result, an MCP result's text content): its value read strictly;
 * plain text (not JSON to anyone); or JSON the strict reader refuses (a key given twice, a lone
 * surrogate, a number out of range), with why: never a value then, since another reader would take one.
 */
function jsonOrText(text) {
    const parsed = strictValue(text);
    if (parsed.ok)
        return { kind: 'json', value: parsed.value };
    try {
        JSON.parse(text);
    }
    catch {
        return { kind: 'text' };
    }
    return { kind: 'refused', reason: parsed.reason };
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

/***/ 8145:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ byteLocation),
/* harmony export */   _: () => (/* binding */ decodeUtf8)
/* harmony export */ });
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4573);
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_buffer__WEBPACK_IMPORTED_MODULE_0__);
/** UTF-8 decoding that refuses invalid bytes and says where the first one is. */

/** Validate (simdutf), then decode; a byte-order mark is kept so that it can be refused with a location. */
function decodeUtf8(bytes) {
    if (!(0,node_buffer__WEBPACK_IMPORTED_MODULE_0__.isUtf8)(bytes))
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

/***/ 2155:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   JE: () => (/* binding */ decodeCheckedWire),
/* harmony export */   TE: () => (/* binding */ encodeRead),
/* harmony export */   WT: () => (/* binding */ checkWire),
/* harmony export */   pp: () => (/* binding */ decodeRead)
/* harmony export */ });
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4637);
/* harmony import */ var _core_model_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(4146);
/* harmony import */ var _core_severity_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(432);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(2020);
/* harmony import */ var _core_trust_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(9597);
/* harmony import */ var _core_vocabulary_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(7063);






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
const instantTuple = (t) => (t === null ? null : [t.seconds, t.fraction]);
const instantOf = (t) => (t === null ? null : { seconds: t[0], fraction: t[1] });
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
    instantTuple(d.time),
    instantTuple(d.begun),
];
const recordTuple = (r, rel) => [
    ...loc(r.loc, rel),
    r.record.provider,
    r.record.record_id,
    r.record.subject,
    r.record.binding_digest,
    r.signer,
    r.trust,
    r.recomputed.ok ? (r.recomputed.digest === r.record.binding_digest ? SAME : r.recomputed.digest) : [r.recomputed.reason],
];
/** What a reading thread sends for one file. */
function encodeRead(evidence, rel) {
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
        strays: evidence.strays ?? 0,
        rejectedClasses: evidence.rejectedClasses ?? [],
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
    const [, , , , index, tool, claim, projected, actionClass, verb, denied, provider, succeeded, labels, time, begun] = tuple;
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
        time: instantOf(time),
        begun: instantOf(begun),
    };
}
function recordOf(t, rel) {
    const record = { schema: _core_model_js__WEBPACK_IMPORTED_MODULE_4__/* .RECORD_SCHEMA */ .ep, provider: t[4], record_id: t[5], subject: t[6], binding_digest: t[7] };
    const sent = t[10];
    const recomputed = sent === SAME
        ? { ok: true, digest: record.binding_digest }
        : typeof sent === 'string'
            ? { ok: true, digest: sent }
            : { ok: false, reason: sent[0] };
    return { loc: unloc(t, rel), record, recomputed, signer: t[8], trust: t[9] };
}
/** What a reading thread sent for the file `rel` (as encodeRead wrote it). */
const decodeRead = (text, rel) => fromWire(JSON.parse(text), rel);
const FINDING_CODE_SET = new Set(_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .FINDING_CODES */ .f2);
const TRUST_CODE_SET = new Set(_core_trust_js__WEBPACK_IMPORTED_MODULE_2__/* .TRUST_CODE_NAMES */ .M5);
const SEVERITY_SET = new Set(_core_severity_js__WEBPACK_IMPORTED_MODULE_1__/* .SEVERITIES */ .oC);
const trustCodeOk = (t) => t === null || !('code' in t) || TRUST_CODE_SET.has(t.code);
/**
 * The first reason a text another process wrote (a cache entry: src/gate/cache.ts) is not an
 * encoded FileEvidence, or null: its shape (schemas/evidence-cache-entry.schema.json), then every
 * member named from a vocabulary against its table (findings, severities, levels, trust codes).
 */
function wireProblem(w, shape) {
    if (!shape(w)) {
        const e = shape.errors?.[0];
        return `its shape: ${e ? `${e.instancePath || '/'} ${e.message ?? e.keyword}` : 'invalid'}`;
    }
    const wire = w;
    for (const f of wire.findings)
        if (!FINDING_CODE_SET.has(f.code) || !SEVERITY_SET.has(f.severity))
            return `a finding's code or severity (${f.code}, ${f.severity})`;
    for (const d of wire.run?.decisions ?? []) {
        const claim = d[6];
        if (claim[0] === 1 && !(0,_core_vocabulary_js__WEBPACK_IMPORTED_MODULE_3__/* .isLevel */ .NW)(claim[2]))
            return `a claimed level (${claim[2]})`;
    }
    if (!trustCodeOk(wire.run?.attestation ?? null))
        return "a run's trust code";
    for (const r of wire.records)
        if (!trustCodeOk(r[9]))
            return "a record's trust code";
    for (const st of wire.statements)
        if (!trustCodeOk(st.trust))
            return "a statement's trust code";
    return null;
}
/**
 * An encoded FileEvidence written by another process (a cache entry), checked: the checked value,
 * or why it is not one (it is then ignored and the file read). Decoding it is left to the thread
 * that needs the evidence (`decodeCheckedWire`); a worker sends the text it checked as it is.
 */
function checkWire(text, shape) {
    let w;
    try {
        w = JSON.parse(text);
    }
    catch (error) {
        return { ok: false, reason: `it is not JSON (${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_5__/* .messageOf */ .bD)(error)})` };
    }
    const problem = wireProblem(w, shape);
    return problem === null ? { ok: true, value: { wire: w } } : { ok: false, reason: problem };
}
/** The evidence of a checked text, for the file `rel`. */
const decodeCheckedWire = (checked, rel) => fromWire(checked.wire, rel);
function fromWire(w, rel) {
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
    return {
        run,
        records: w.records.map((r) => recordOf(r, rel)),
        statements: w.statements,
        findings: w.findings,
        digests: w.digests,
        ...(w.strays > 0 ? { strays: w.strays } : {}),
        ...(w.rejectedClasses.length > 0 ? { rejectedClasses: w.rejectedClasses } : {}),
    };
}


/***/ }),

/***/ 9045:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Gx: () => (/* binding */ cannotWriteText),
/* harmony export */   X2: () => (/* binding */ makeDirs),
/* harmony export */   Xr: () => (/* binding */ removeDirs),
/* harmony export */   hb: () => (/* binding */ outputPlace),
/* harmony export */   p8: () => (/* binding */ tempBeside)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
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
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.lstatSync)(file);
    }
    catch {
        return 'replace'; // nothing there yet
    }
    if (st.isFIFO() || st.isCharacterDevice())
        return 'in place';
    if (st.isFile() || st.isDirectory())
        return 'replace';
    if (st.isSymbolicLink()) {
        if (OWN_OUTPUT.test((0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readlinkSync)(file)))
            return 'in place';
        let to = null;
        try {
            to = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync)(file);
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
/** An output that cannot be written, in the words the CLI (exit 2) and the action (`result=error`) both use. */
const cannotWriteText = (what, file, error) => `cannot write ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`;
/**
 * `mkdir -p` one level at a time: the folders of an output made from the nearest one that exists;
 * returns the folders it made, outermost first (what a writer that fails removes again).
 * Node's own recursive mkdir never returns where the kernel answers ENOENT for a folder whose parent
 * exists (under /proc): here that is an error, as any other that stops it.
 */
function makeDirs(dir) {
    const missing = [];
    let at = node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(dir);
    for (;;) {
        let st = null;
        try {
            st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync)(at);
        }
        catch {
            st = null;
        }
        if (st) {
            if (!st.isDirectory())
                throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(dir)}'`), { code: 'ENOTDIR' });
            break;
        }
        const parent = node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname(at);
        if (parent === at)
            break;
        missing.push(at);
        at = parent;
    }
    const made = [];
    for (const d of missing.reverse()) {
        try {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdirSync)(d);
            made.push(d);
        }
        catch (error) {
            // Made meanwhile by another writer: as good as made here.
            if (error.code !== 'EEXIST' || !(0,node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync)(d).isDirectory())
                throw error;
        }
    }
    return made;
}
/** Folders a failed write made, removed again innermost first (only while empty: never what another writer put there). */
function removeDirs(made) {
    for (const d of [...made].reverse()) {
        try {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.rmdirSync)(d);
        }
        catch {
            return; // not empty, or gone: what is left stays
        }
    }
}
/** A new temporary file's path beside `file`: a short name of its own (a legal name of 255 bytes has no room for a longer one). */
const tempBeside = (file) => node_path__WEBPACK_IMPORTED_MODULE_2___default().join(node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname(file), `.receipt-gate-${process.pid}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}.tmp`);


/***/ }),

/***/ 5655:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $O: () => (/* binding */ rung),
/* harmony export */   RK: () => (/* reexport safe */ _core_text_js__WEBPACK_IMPORTED_MODULE_0__.RK),
/* harmony export */   Wp: () => (/* binding */ clipBytes),
/* harmony export */   gT: () => (/* binding */ runProducer),
/* harmony export */   ho: () => (/* binding */ weakestRung),
/* harmony export */   kq: () => (/* binding */ uriPath),
/* harmony export */   nB: () => (/* binding */ producerLine),
/* harmony export */   pS: () => (/* binding */ levelCounts),
/* harmony export */   s_: () => (/* binding */ findingCounts),
/* harmony export */   tJ: () => (/* binding */ inert),
/* harmony export */   uk: () => (/* binding */ recordCounts),
/* harmony export */   zA: () => (/* binding */ failingFirst)
/* harmony export */ });
/* unused harmony exports where, located, findingPlace */
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2020);
/* harmony import */ var _core_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7063);
/** Making untrusted text safe to print (control characters escaped, length bounded), and the sentences every reporter shares. */



/** "4 verified, 1 observed_confirmed, 4 asserted, 0 no_effect": the totals sentence of every reporter. */
const levelCounts = (t) => [..._core_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .LEVELS_DESCENDING */ .lS.map((l) => `${t[l]} ${l}`), `${t.no_effect} no_effect`].join(', ');
/** "weakest rung: observed_confirmed" (§9), or that nothing asserts a side effect. */
const weakestRung = (t) => t.weakest_level === null ? 'weakest rung: none (no call asserts a side effect)' : `weakest rung: ${t.weakest_level}`;
/** A level for people: the rung, or "—" for a call that asserts no side effect. */
const rung = (l) => l ?? '—';
/** "4 bound, 0 unmatched, 0 inconsistent, 0 untrusted, 0 duplicate", from the outcome table. */
const recordCounts = (t) => _core_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .RECORD_OUTCOME_NAMES */ .Kc.map((o) => `${t[o]} ${o}`).join(', ');
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
/**
 * Text a command prints with every runner command made inert: a line that starts a workflow command
 * after any white space (`::error::`, `::add-mask::`) has its first character escaped as \uXXXX, and
 * `##[` (the runner finds that form anywhere in a line) becomes `\u0023#[`. The CLI's output carries
 * names from the evidence (a class, a path, a tool) and runs in a workflow's `run:` step, whose
 * output the runner reads for commands. The runner trims what .NET calls white space, which is
 * JavaScript's plus U+0085 (a red team: `\u0085::stop-commands::` passed as inert).
 */
const inert = (text) => text.replace(/^([\s\u0085]*)::/gm, (_, ws) => `${ws}\\u003a:`).replaceAll('##[', '\\u0023#[');
/** Where a location points, for people: file:line:column, or file!member:line:column inside a bundle. */
function where(l) {
    const col = l.column !== undefined ? `:${l.column}` : '';
    return l.member ? `${l.file}!${l.member}:${l.line}${col}` : `${l.file}:${l.line}${col}`;
}
/** A finding on one line: where (file:line:column, or the input as given), then its message. */
const located = (f) => `${findingPlace(f)}: ${visible(f.message)}`;
/** Where a finding is, for people: file:line:column, or the input as given (never an invented place). */
const findingPlace = (f) => visible(f.input !== undefined ? f.input : where(f));
const MARKER = ' … [trimmed by receipt-gate]';
/** At most `max` UTF-8 bytes, cut on a character boundary with a visible marker. */
function clipBytes(text, max) {
    if (Buffer.byteLength(text) <= max)
        return text;
    const room = max - Buffer.byteLength(MARKER);
    let lo = 0;
    let hi = Math.min(text.length, room);
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (Buffer.byteLength((0,_core_text_js__WEBPACK_IMPORTED_MODULE_0__/* .clip */ .$Q)(text, mid, '')) <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (0,_core_text_js__WEBPACK_IMPORTED_MODULE_0__/* .clip */ .$Q)(text, lo, '') + MARKER;
}
/** Calls in the order a reader needs them: below their required level first, then with other failures, then the rest (report order within each). */
function failingFirst(calls) {
    const rank = (c) => (c.below_required ? 0 : c.findings.some((f) => f.severity === 'error') ? 1 : 2);
    return calls
        .map((call, i) => ({ call, i, r: rank(call) }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map(({ call, r }) => ({ call, fails: r < 2 }));
}
/**
 * A repository path as a URI path: every segment percent-encoded, `(`, `)`, `!`, `*` and `'` too
 * (a pull request controls file names: a `)` must not end a Markdown link, a `#` or `?` must not
 * start a fragment or a query, a `%` must not decode to another file).
 */
const uriPath = (path) => path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()!*']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');


/***/ }),

/***/ 6419:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ PUBLIC_GOOD_ROOT)
/* harmony export */ });
// Generated by scripts/gen-trusted-root.mjs; do not edit.
const PUBLIC_GOOD_ROOT = {
    "origin": {
        "package": "@sigstore/tuf@5.0.1",
        "file": "seeds.json",
        "repository": "https://tuf-repo-cdn.sigstore.dev",
        "target": "trusted_root.json",
        "sha256": "6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66",
        "tufRootVersion": 16,
        "tufRootExpires": "2027-04-22T19:27:31Z",
        "taken": "2026-11-05T00:19:12Z",
        "newestValidFrom": "2025-09-23T00:00:00Z"
    },
    "json": "{\n  \"mediaType\": \"application/vnd.dev.sigstore.trustedroot+json;version=0.1\",\n  \"tlogs\": [\n    {\n      \"baseUrl\": \"https://rekor.sigstore.dev\",\n      \"hashAlgorithm\": \"SHA2_256\",\n      \"publicKey\": {\n        \"rawBytes\": \"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE2G2Y+2tabdTV5BcGiBIx0a9fAFwrkBbmLSGtks4L3qX6yYY0zufBnhC8Ur/iy55GhWP/9A/bY2LhC30M9+RYtw==\",\n        \"keyDetails\": \"PKIX_ECDSA_P256_SHA_256\",\n        \"validFor\": {\n          \"start\": \"2021-01-12T11:53:27Z\"\n        }\n      },\n      \"logId\": {\n        \"keyId\": \"wNI9atQGlz+VWfO6LRygH4QUfY/8W4RFwiT5i5WRgB0=\"\n      }\n    },\n    {\n      \"baseUrl\": \"https://log2025-1.rekor.sigstore.dev\",\n      \"hashAlgorithm\": \"SHA2_256\",\n      \"publicKey\": {\n        \"rawBytes\": \"MCowBQYDK2VwAyEAt8rlp1knGwjfbcXAYPYAkn0XiLz1x8O4t0YkEhie244=\",\n        \"keyDetails\": \"PKIX_ED25519\",\n        \"validFor\": {\n          \"start\": \"2025-09-23T00:00:00Z\"\n        }\n      },\n      \"logId\": {\n        \"keyId\": \"zxGZFVvd0FEmjR8WrFwMdcAJ9vtaY/QXf44Y1wUeP6A=\"\n      }\n    }\n  ],\n  \"certificateAuthorities\": [\n    {\n      \"subject\": {\n        \"organization\": \"sigstore.dev\",\n        \"commonName\": \"sigstore\"\n      },\n      \"uri\": \"https://fulcio.sigstore.dev\",\n      \"certChain\": {\n        \"certificates\": [\n          {\n            \"rawBytes\": \"MIIB+DCCAX6gAwIBAgITNVkDZoCiofPDsy7dfm6geLbuhzAKBggqhkjOPQQDAzAqMRUwEwYDVQQKEwxzaWdzdG9yZS5kZXYxETAPBgNVBAMTCHNpZ3N0b3JlMB4XDTIxMDMwNzAzMjAyOVoXDTMxMDIyMzAzMjAyOVowKjEVMBMGA1UEChMMc2lnc3RvcmUuZGV2MREwDwYDVQQDEwhzaWdzdG9yZTB2MBAGByqGSM49AgEGBSuBBAAiA2IABLSyA7Ii5k+pNO8ZEWY0ylemWDowOkNa3kL+GZE5Z5GWehL9/A9bRNA3RbrsZ5i0JcastaRL7Sp5fp/jD5dxqc/UdTVnlvS16an+2Yfswe/QuLolRUCrcOE2+2iA5+tzd6NmMGQwDgYDVR0PAQH/BAQDAgEGMBIGA1UdEwEB/wQIMAYBAf8CAQEwHQYDVR0OBBYEFMjFHQBBmiQpMlEk6w2uSu1KBtPsMB8GA1UdIwQYMBaAFMjFHQBBmiQpMlEk6w2uSu1KBtPsMAoGCCqGSM49BAMDA2gAMGUCMH8liWJfMui6vXXBhjDgY4MwslmN/TJxVe/83WrFomwmNf056y1X48F9c4m3a3ozXAIxAKjRay5/aj/jsKKGIkmQatjI8uupHr/+CxFvaJWmpYqNkLDGRU+9orzh5hI2RrcuaQ==\"\n          }\n        ]\n      },\n      \"validFor\": {\n        \"start\": \"2021-03-07T03:20:29Z\",\n        \"end\": \"2022-12-31T23:59:59.999Z\"\n      }\n    },\n    {\n      \"subject\": {\n        \"organization\": \"sigstore.dev\",\n        \"commonName\": \"sigstore\"\n      },\n      \"uri\": \"https://fulcio.sigstore.dev\",\n      \"certChain\": {\n        \"certificates\": [\n          {\n            \"rawBytes\": \"MIICGjCCAaGgAwIBAgIUALnViVfnU0brJasmRkHrn/UnfaQwCgYIKoZIzj0EAwMwKjEVMBMGA1UEChMMc2lnc3RvcmUuZGV2MREwDwYDVQQDEwhzaWdzdG9yZTAeFw0yMjA0MTMyMDA2MTVaFw0zMTEwMDUxMzU2NThaMDcxFTATBgNVBAoTDHNpZ3N0b3JlLmRldjEeMBwGA1UEAxMVc2lnc3RvcmUtaW50ZXJtZWRpYXRlMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE8RVS/ysH+NOvuDZyPIZtilgUF9NlarYpAd9HP1vBBH1U5CV77LSS7s0ZiH4nE7Hv7ptS6LvvR/STk798LVgMzLlJ4HeIfF3tHSaexLcYpSASr1kS0N/RgBJz/9jWCiXno3sweTAOBgNVHQ8BAf8EBAMCAQYwEwYDVR0lBAwwCgYIKwYBBQUHAwMwEgYDVR0TAQH/BAgwBgEB/wIBADAdBgNVHQ4EFgQU39Ppz1YkEZb5qNjpKFWixi4YZD8wHwYDVR0jBBgwFoAUWMAeX5FFpWapesyQoZMi0CrFxfowCgYIKoZIzj0EAwMDZwAwZAIwPCsQK4DYiZYDPIaDi5HFKnfxXx6ASSVmERfsynYBiX2X6SJRnZU84/9DZdnFvvxmAjBOt6QpBlc4J/0DxvkTCqpclvziL6BCCPnjdlIB3Pu3BxsPmygUY7Ii2zbdCdliiow=\"\n          },\n          {\n            \"rawBytes\": \"MIIB9zCCAXygAwIBAgIUALZNAPFdxHPwjeDloDwyYChAO/4wCgYIKoZIzj0EAwMwKjEVMBMGA1UEChMMc2lnc3RvcmUuZGV2MREwDwYDVQQDEwhzaWdzdG9yZTAeFw0yMTEwMDcxMzU2NTlaFw0zMTEwMDUxMzU2NThaMCoxFTATBgNVBAoTDHNpZ3N0b3JlLmRldjERMA8GA1UEAxMIc2lnc3RvcmUwdjAQBgcqhkjOPQIBBgUrgQQAIgNiAAT7XeFT4rb3PQGwS4IajtLk3/OlnpgangaBclYpsYBr5i+4ynB07ceb3LP0OIOZdxexX69c5iVuyJRQ+Hz05yi+UF3uBWAlHpiS5sh0+H2GHE7SXrk1EC5m1Tr19L9gg92jYzBhMA4GA1UdDwEB/wQEAwIBBjAPBgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBRYwB5fkUWlZql6zJChkyLQKsXF+jAfBgNVHSMEGDAWgBRYwB5fkUWlZql6zJChkyLQKsXF+jAKBggqhkjOPQQDAwNpADBmAjEAj1nHeXZp+13NWBNa+EDsDP8G1WWg1tCMWP/WHPqpaVo0jhsweNFZgSs0eE7wYI4qAjEA2WB9ot98sIkoF3vZYdd3/VtWB5b9TNMea7Ix/stJ5TfcLLeABLE4BNJOsQ4vnBHJ\"\n          }\n        ]\n      },\n      \"validFor\": {\n        \"start\": \"2022-04-13T20:06:15Z\"\n      }\n    }\n  ],\n  \"ctlogs\": [\n    {\n      \"baseUrl\": \"https://ctfe.sigstore.dev/test\",\n      \"hashAlgorithm\": \"SHA2_256\",\n      \"publicKey\": {\n        \"rawBytes\": \"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEbfwR+RJudXscgRBRpKX1XFDy3PyudDxz/SfnRi1fT8ekpfBd2O1uoz7jr3Z8nKzxA69EUQ+eFCFI3zeubPWU7w==\",\n        \"keyDetails\": \"PKIX_ECDSA_P256_SHA_256\",\n        \"validFor\": {\n          \"start\": \"2021-03-14T00:00:00Z\",\n          \"end\": \"2022-10-31T23:59:59.999Z\"\n        }\n      },\n      \"logId\": {\n        \"keyId\": \"CGCS8ChS/2hF0dFrJ4ScRWcYrBY9wzjSbea8IgY2b3I=\"\n      }\n    },\n    {\n      \"baseUrl\": \"https://ctfe.sigstore.dev/2022\",\n      \"hashAlgorithm\": \"SHA2_256\",\n      \"publicKey\": {\n        \"rawBytes\": \"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEiPSlFi0CmFTfEjCUqF9HuCEcYXNKAaYalIJmBZ8yyezPjTqhxrKBpMnaocVtLJBI1eM3uXnQzQGAJdJ4gs9Fyw==\",\n        \"keyDetails\": \"PKIX_ECDSA_P256_SHA_256\",\n        \"validFor\": {\n          \"start\": \"2022-10-20T00:00:00Z\"\n        }\n      },\n      \"logId\": {\n        \"keyId\": \"3T0wasbHETJjGR4cmWc3AqJKXrjePK3/h4pygC8p7o4=\"\n      }\n    }\n  ],\n  \"timestampAuthorities\": [\n    {\n      \"subject\": {\n        \"organization\": \"sigstore.dev\",\n        \"commonName\": \"sigstore-tsa-selfsigned\"\n      },\n      \"uri\": \"https://timestamp.sigstore.dev/api/v1/timestamp\",\n      \"certChain\": {\n        \"certificates\": [\n          {\n            \"rawBytes\": \"MIICEDCCAZagAwIBAgIUOhNULwyQYe68wUMvy4qOiyojiwwwCgYIKoZIzj0EAwMwOTEVMBMGA1UEChMMc2lnc3RvcmUuZGV2MSAwHgYDVQQDExdzaWdzdG9yZS10c2Etc2VsZnNpZ25lZDAeFw0yNTA0MDgwNjU5NDNaFw0zNTA0MDYwNjU5NDNaMC4xFTATBgNVBAoTDHNpZ3N0b3JlLmRldjEVMBMGA1UEAxMMc2lnc3RvcmUtdHNhMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE4ra2Z8hKNig2T9kFjCAToGG30jky+WQv3BzL+mKvh1SKNR/UwuwsfNCg4sryoYAd8E6isovVA3M4aoNdm9QDi50Z8nTEyvqgfDPtTIwXItfiW/AFf1V7uwkbkAoj0xxco2owaDAOBgNVHQ8BAf8EBAMCB4AwHQYDVR0OBBYEFIn9eUOHz9BlRsMCRscsc1t9tOsDMB8GA1UdIwQYMBaAFJjsAe9/u1H/1JUeb4qImFMHic6/MBYGA1UdJQEB/wQMMAoGCCsGAQUFBwMIMAoGCCqGSM49BAMDA2gAMGUCMDtpsV/6KaO0qyF/UMsX2aSUXKQFdoGTptQGc0ftq1csulHPGG6dsmyMNd3JB+G3EQIxAOajvBcjpJmKb4Nv+2Taoj8Uc5+b6ih6FXCCKraSqupe07zqswMcXJTe1cExvHvvlw==\"\n          },\n          {\n            \"rawBytes\": \"MIIB9zCCAXygAwIBAgIUV7f0GLDOoEzIh8LXSW80OJiUp14wCgYIKoZIzj0EAwMwOTEVMBMGA1UEChMMc2lnc3RvcmUuZGV2MSAwHgYDVQQDExdzaWdzdG9yZS10c2Etc2VsZnNpZ25lZDAeFw0yNTA0MDgwNjU5NDNaFw0zNTA0MDYwNjU5NDNaMDkxFTATBgNVBAoTDHNpZ3N0b3JlLmRldjEgMB4GA1UEAxMXc2lnc3RvcmUtdHNhLXNlbGZzaWduZWQwdjAQBgcqhkjOPQIBBgUrgQQAIgNiAAQUQNtfRT/ou3YATa6wB/kKTe70cfJwyRIBovMnt8RcJph/COE82uyS6FmppLLL1VBPGcPfpQPYJNXzWwi8icwhKQ6W/Qe2h3oebBb2FHpwNJDqo+TMaC/tdfkv/ElJB72jRTBDMA4GA1UdDwEB/wQEAwIBBjASBgNVHRMBAf8ECDAGAQH/AgEAMB0GA1UdDgQWBBSY7AHvf7tR/9SVHm+KiJhTB4nOvzAKBggqhkjOPQQDAwNpADBmAjEAwGEGrfGZR1cen1R8/DTVMI943LssZmJRtDp/i7SfGHmGRP6gRbuj9vOK3b67Z0QQAjEAuT2H673LQEaHTcyQSZrkp4mX7WwkmF+sVbkYY5mXN+RMH13KUEHHOqASaemYWK/E\"\n          }\n        ]\n      },\n      \"validFor\": {\n        \"start\": \"2025-07-04T00:00:00Z\"\n      }\n    }\n  ]\n}\n"
};


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

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 4649:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

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
/******/ var __webpack_exports__ = __nccwpck_require__(2929);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
