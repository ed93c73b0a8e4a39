/**
 * Arguments that choose files or skip a command's questions (a target path, "replace", a values
 * file, a domain to publish) are taken only from code: this extension's own calls and its tests.
 * A `[label](command:id?args)` link in a message (or a walkthrough, a hover, another extension's
 * Markdown) passes its arguments as JSON, and JSON cannot hold a symbol: an object marked with
 * `FROM_CODE` can only come from code running in this extension host. (Commands a workbench
 * menu runs get the tree node, never such an object.)
 */
export const FROM_CODE: unique symbol = Symbol.for('docsAdmin.fromCode') as typeof FROM_CODE;

/** `args` marked as coming from code (returned for a call such as `fromCode({ target, replace: true })`). */
export function fromCode<T extends object>(args: T): T {
  return Object.assign(args, { [FROM_CODE]: true });
}

/**
 * The arguments when they came from code, `{}` when there are none; `undefined` when someone
 * else passed some (the caller refuses: a link must not choose files or skip a question).
 */
export function codeArgs<T extends object>(args: T | undefined | null): T | Partial<T> | undefined {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object') return undefined;
  if ((args as { [FROM_CODE]?: unknown })[FROM_CODE] === true) return args;
  return Object.keys(args).length === 0 ? {} : undefined;
}
