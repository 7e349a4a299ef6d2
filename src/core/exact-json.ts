import { ExactNumber } from './exact-number';

/**
 * JSON with every number kept as its digits (`ExactNumber`). Strings, nearly all of a large body, are decoded
 * by the native `JSON.parse` on their own slice (docs/performance.md). A key given twice is refused: which one
 * counts would be a guess. `__proto__` is an own key, as `JSON.parse` makes it. Throws SyntaxError.
 */
export function parseExactJson(text: string): unknown {
  return new ExactJsonParser(text).document();
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class ExactJsonParser {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.value();
    this.skipSpace();
    if (this.at < this.text.length) this.fail('nothing expected after the value');
    return value;
  }

  private value(): unknown {
    this.skipSpace();
    const code = this.text.charCodeAt(this.at);
    if (code === QUOTE) return this.string();
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.number();
    for (const [word, literal] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return literal;
      }
    }
    return this.fail(Number.isNaN(code) ? 'unexpected end of the text' : 'a value expected');
  }

  private object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.members(0x7d, () => {
      if (this.next() !== QUOTE) this.fail('a key expected');
      const keyAt = this.at;
      const key = this.string();
      if (seen.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`, keyAt);
      seen.add(key);
      if (this.next() !== 0x3a) this.fail("':' expected");
      this.at++;
      const value = this.value();
      // `object[key] = …` would set the prototype for "__proto__": define it as the own key it is.
      if (key === '__proto__')
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
    });
    return object;
  }

  private array(): unknown[] {
    const array: unknown[] = [];
    this.members(0x5d, () => array.push(this.value()));
    return array;
  }

  /** Reads the comma-separated members after an opening bracket, up to and past `close`. */
  private members(close: number, member: () => void): void {
    this.at++;
    if (this.next() === close) {
      this.at++;
      return;
    }
    for (;;) {
      member();
      const after = this.next();
      this.at++;
      if (after === close) return;
      if (after !== 0x2c) this.fail(`',' or '${String.fromCharCode(close)}' expected`, this.at - 1);
    }
  }

  /** Finds the closing quote (one not escaped) and lets the native parser decode the slice. */
  private string(): string {
    const start = this.at;
    let end = start;
    for (;;) {
      end = this.text.indexOf('"', end + 1);
      if (end < 0) this.fail('unterminated string', start);
      let backslashes = 0;
      while (this.text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) break;
    }
    this.at = end + 1;
    try {
      return JSON.parse(this.text.slice(start, end + 1)) as string;
    } catch {
      return this.fail('invalid string (a control character or a bad escape)', start);
    }
  }

  private number(): ExactNumber {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail('invalid number');
    this.at += match[0].length;
    return new ExactNumber(match[0]);
  }

  /** The next character's code past white space (NaN at the end). */
  private next(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.at);
  }

  private skipSpace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      this.at++;
    }
  }

  private fail(problem: string, at = this.at): never {
    throw new SyntaxError(`${problem} at position ${at}`);
  }
}

const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
