/**
 * A feedback entry's `contact`: an email address a reader left, personal data. It is held so
 * that nothing prints it by accident: `JSON.stringify`, `String()`, a template literal and
 * Node's `util.inspect` (what a log line or a test failure shows) all give a placeholder; only
 * `reveal()` gives the address, and only the places that may show it call that (the editor,
 * on the entry the person chose; the CLI with `--include-contact`). It never reaches a log, a
 * file or the CLI's output otherwise.
 */
const HIDDEN = '[reader contact hidden]';

export class ReaderContact {
  readonly #email: string;

  constructor(email: string) {
    this.#email = email;
  }

  /** The address, for the one place that was asked to show it. */
  reveal(): string {
    return this.#email;
  }

  toJSON(): string {
    return HIDDEN;
  }

  toString(): string {
    return HIDDEN;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return HIDDEN;
  }
}
