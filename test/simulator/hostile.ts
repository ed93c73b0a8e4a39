/**
 * Hostile text in any field of the API's answers, for the tests that check what a front end makes
 * of server text (the AI tools' results above all): while recording, every string field of every
 * JSON answer of the API origin is noted by route and path (`feedback[].comment`, `commit.message`,
 * an array's elements as `[]`); while a field is armed, that field of every matching answer gets
 * the payload added after its value (so a URL or a path keeps the start that makes it one, and a
 * value that must be an id stops being one). A test lists the fields a tool was served, then
 * arms them one at a time: a new field the API answers is covered without a new test.
 */
import type { RouteName } from './types';

export interface HostileField {
  /** The route whose answers get it; `'*'`: every route's. */
  route: RouteName | '*';
  /** The field's path, as recorded (`logs[]`, `source.repository`). */
  field: string;
  /** Added after the field's value. */
  payload: string;
}

export class HostileText {
  private recording = false;
  private armed: HostileField | undefined;
  private readonly seen = new Map<string, Set<string>>();

  /** Starts (or stops) noting the string fields served; starting forgets what was noted. */
  record(on: boolean): void {
    this.recording = on;
    if (on) this.seen.clear();
  }

  /** The payload goes into this field from now on (undefined: into none). */
  arm(field: HostileField | undefined): void {
    this.armed = field === undefined ? undefined : { ...field };
  }

  /** The string fields served since recording started, by route. */
  fields(): Record<string, string[]> {
    return Object.fromEntries([...this.seen].map(([route, fields]) => [route, [...fields].sort()]));
  }

  get active(): boolean {
    return this.recording || this.armed !== undefined;
  }

  /** The answer's body as it goes out: noted, and with the payload in the armed field. */
  apply(route: RouteName | 'unknown', body: Buffer): Buffer {
    if (!this.active || route === 'unknown' || body.length === 0) return body;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return body;
    }
    const armed = this.armed !== undefined && (this.armed.route === '*' || this.armed.route === route) ? this.armed : undefined;
    const seen = this.seen.get(route) ?? new Set<string>();
    if (this.recording) this.seen.set(route, seen);
    const walk = (node: unknown, path: string): unknown => {
      if (typeof node === 'string') {
        if (this.recording) seen.add(path);
        return armed !== undefined && armed.field === path ? `${node}${armed.payload}` : node;
      }
      if (Array.isArray(node)) return node.map((item) => walk(item, `${path}[]`));
      if (node !== null && typeof node === 'object') {
        return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, path === '' ? key : `${path}.${key}`)]));
      }
      return node;
    };
    return Buffer.from(JSON.stringify(walk(value, '')));
  }
}
