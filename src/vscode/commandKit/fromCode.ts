/**
 * Arguments that choose files or skip a command's questions (a target path, "replace", a values
 * file, a domain to publish, a base URL) are taken only from code: this extension's own calls and
 * its tests. A `[label](command:id?args)` link in a message (or a walkthrough, a hover, another
 * extension's Markdown) passes its arguments as JSON, and JSON cannot hold a symbol: an object
 * marked with `FROM_CODE` can only come from code that holds the symbol. The symbol is private to
 * this module (`Symbol()`, not `Symbol.for`, which anyone could recreate); the integration tests
 * get `fromCode` from the extension's exports, which hand it out only outside production.
 * (Commands a workbench menu runs get the tree node, never such an object.)
 */
const FROM_CODE: unique symbol = Symbol('docsAdmin.fromCode');

/** `args` marked as coming from code (returned for a call such as `fromCode({ target, replace: true })`). */
export function fromCode<T extends object>(args: T): T {
  return Object.assign(args, { [FROM_CODE]: true });
}

/** Whether `args` were marked by `fromCode`. */
export function isFromCode(args: unknown): boolean {
  return typeof args === 'object' && args !== null && (args as { [FROM_CODE]?: unknown })[FROM_CODE] === true;
}

/**
 * The arguments when they came from code, `{}` when there are none; `undefined` when someone
 * else passed some (the caller refuses: a link must not choose files or skip a question).
 */
export function codeArgs<T extends object>(args: T | undefined | null): T | Partial<T> | undefined {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object') return undefined;
  if (isFromCode(args)) return args;
  return Object.keys(args).length === 0 ? {} : undefined;
}
