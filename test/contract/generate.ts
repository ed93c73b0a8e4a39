/**
 * Vendor-valid answers made from a (dereferenced) schema, to feed the client everything the
 * vendor's documents allow rather than the few shapes the simulator happens to give:
 * - the required fields only, and every property (openapi-sampler, with the documents' own
 *   examples where they give one);
 * - from the full one: each value of each enum, `null` for each nullable field (OpenAPI 3.0
 *   `nullable`, or a 3.1 type array with "null") and for all of them at once, and each branch
 *   of an `anyOf` / `oneOf`.
 * Every variant is checked against the schema by the caller (a generator bug must not pass as
 * a client bug, nor the other way).
 */
import { sample } from 'openapi-sampler';

export interface Variant {
  /** What the variant is, for the test's title: `required only`, `status = failed`, `prLink = null`. */
  name: string;
  body: unknown;
}

type Schema = {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

type Path = (string | number)[];

/** A place in the full sample where the schema allows something else. */
type Point = { path: Path; kind: 'enum'; values: unknown[] } | { path: Path; kind: 'nullable' } | { path: Path; kind: 'branches'; branches: Schema[] };

function nullable(schema: Schema): boolean {
  return schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
}

/** Every point of `schema` whose place exists in `value` (the full sample). */
function points(schema: Schema, value: unknown, path: Path = []): Point[] {
  const found: Point[] = [];
  if (schema.enum !== undefined) found.push({ path, kind: 'enum', values: schema.enum });
  if (nullable(schema) && path.length > 0) found.push({ path, kind: 'nullable' });
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined && branches.length > 1) found.push({ path, kind: 'branches', branches });
  for (const part of [...(schema.allOf ?? []), ...(branches?.slice(0, 1) ?? [])]) found.push(...points(part, value, path));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (key in value) found.push(...points(property, (value as Record<string, unknown>)[key], [...path, key]));
    }
  }
  if (Array.isArray(value) && schema.items !== undefined && value.length > 0) found.push(...points(schema.items, value[0], [...path, 0]));
  return found;
}

/** A copy of `value` with `replacement` at `path`. */
function withValue(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return (value as unknown[]).map((item, i) => (i === head ? withValue(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head as string]: withValue(object[head as string], rest, replacement) };
}

function label(path: Path): string {
  return path.length === 0 ? '(body)' : path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
}

/** The variants of `schema` (dereferenced: no `$ref` left). */
export function variants(schema: object): Variant[] {
  const full = sample(schema, {});
  const out: Variant[] = [
    { name: 'required fields only', body: sample(schema, { skipNonRequired: true }) },
    { name: 'every field', body: full },
  ];
  const found = points(schema, full);
  for (const point of found) {
    switch (point.kind) {
      case 'enum':
        for (const value of point.values) out.push({ name: `${label(point.path)} = ${JSON.stringify(value)}`, body: withValue(full, point.path, value) });
        break;
      case 'nullable':
        out.push({ name: `${label(point.path)} = null`, body: withValue(full, point.path, null) });
        break;
      case 'branches':
        point.branches.forEach((branch, i) => out.push({ name: `${label(point.path)}: branch ${i + 1} of ${point.branches.length}`, body: withValue(full, point.path, sample(branch as object, {})) }));
        break;
    }
  }
  const nulls = found.filter((p) => p.kind === 'nullable');
  if (nulls.length > 1) out.push({ name: 'every nullable field null', body: nulls.reduce((body, p) => withValue(body, p.path, null), full) });
  return out;
}
