/**
 * A V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` or bench/host/activation.ts write it) as
 * text for bench/profiles/: where the sampled time went, by function, self and total (a function
 * counted once per sample however deep it recurses), with the file it is in.
 *
 *   node out/bench/profileText.js <file.cpuprofile> [--top N] [--under <function name>]
 *
 * `--under` keeps only the samples whose stack passes through that function (activate, say), so
 * that a profile of a whole process can be read for one call.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** `name file:line`, the file as its last two path parts. */
function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url === '' ? '' : ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  return `${functionName === '' ? '(anonymous)' : functionName}${file}`;
}

export function profileText(profile: CpuProfile, top: number, under?: string): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    // The delta before a sample is the time it stands for (the next sample's delta, in V8's format).
    const us = profile.timeDeltas[i + 1] ?? 0;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node !== undefined) stack.push(keyOf(node));
    }
    if (under !== undefined && !stack.some((k) => k.split(' ')[0] === under)) continue;
    sampled += us;
    const leaf = stack[0] ?? '(unknown)';
    self.set(leaf, (self.get(leaf) ?? 0) + us);
    for (const k of new Set(stack)) total.set(k, (total.get(k) ?? 0) + us);
  }
  const ms = (us: number) => (us / 1000).toFixed(2).padStart(9);
  const table = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${ms(us)} ms ${((100 * us) / Math.max(sampled, 1)).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return [
    `sampled: ${(sampled / 1000).toFixed(2)} ms${under === undefined ? '' : ` under ${under}`} (profile span ${((profile.endTime - profile.startTime) / 1000).toFixed(2)} ms, ${profile.samples.length} samples)`,
    '',
    'self time (the function itself, not its callees):',
    table(self),
    '',
    'total time (the function and what it called):',
    table(total),
  ].join('\n');
}

if (require.main === module) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, under: { type: 'string' } } });
  const file = positionals[0];
  if (file === undefined) {
    console.error('usage: node out/bench/profileText.js <file.cpuprofile> [--top N] [--under <function name>]');
    process.exit(2);
  }
  console.log(profileText(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(values.top), values.under));
}
