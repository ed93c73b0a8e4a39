/**
 * The action's interface: its inputs and outputs, as `action.yml` at the repository's root
 * declares them (a unit test holds the two together). The entry reads no other input and writes
 * no other output: `Runner.input` and `Runner.output` take these names only.
 */

export const OPERATIONS = ['publish', 'export', 'agent', 'deploy', 'preview', 'report', 'check'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Each input: whether the workflow must give it, and its default (the runner fills it in; the entry assumes the same). */
export const INPUTS = {
  operation: { required: false, default: 'publish' },
  domain: { required: false },
  version: { required: false },
  'values-file': { required: false },
  'rollout-command': { required: false },
  prompt: { required: false },
  branch: { required: false },
  wait: { required: false, default: 'true' },
  days: { required: false, default: '7' },
  rows: { required: false, default: '10' },
  root: { required: false, default: '.' },
  timeout: { required: false, default: '1800' },
  'base-url': { required: true },
  'project-id': { required: false },
  'api-key': { required: true },
} as const satisfies Record<string, { required: boolean; default?: string }>;
export type InputName = keyof typeof INPUTS;

export const OUTPUTS = ['job-id', 'bundle-url', 'expires-at', 'pr-link', 'status-id', 'status', 'preview-url'] as const;
export type OutputName = (typeof OUTPUTS)[number];

/** The entry's file, as `runs.main` names it. */
export const ENTRY = 'dist/action/index.js';
