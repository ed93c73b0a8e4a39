/**
 * A process and everything it started, as Linux's /proc shows them: for stopping code-server
 * with its extension hosts, pty host and file watcher, and waiting until each has exited, before
 * anything reads or removes the folders they write to (a file they still hold, such as a
 * workspace's `vscode.lock`, may vanish under a reader). The test host runs on Linux only.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
}

function entry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

function allProcesses(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => entry(Number(name)))
    .filter((e): e is ProcessEntry => e !== undefined);
}

/** Whether `pid` still runs (a zombie has exited: only its parent's bookkeeping is left). */
export function isRunning(pid: number): boolean {
  const found = entry(pid);
  return found !== undefined && found.state !== 'Z' && found.state !== 'X';
}

/** The processes of `root`'s group and every descendant of `root` (in its group or not), root included. */
export function processTree(root: number): number[] {
  const all = allProcesses();
  const found = new Set<number>(all.filter((p) => p.pgrp === root || p.pid === root).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.add(p.pid);
        grew = true;
      }
    }
  }
  return [...found].filter(isRunning);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** Resolves once none of `pids` runs; false when `guardMs` passed first (a hung process: a guard, not a window). */
async function exited(pids: number[], guardMs: number): Promise<boolean> {
  const until = Date.now() + guardMs;
  while (pids.some(isRunning)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * Stops `child` (started `detached`, so it leads its own process group) and everything it
 * started: SIGTERM to the group (code-server shuts its extension hosts down), SIGKILL to
 * whatever still runs after the guard; resolves only when every one of those processes has
 * exited, wherever it moved (a child that left the group, or outlives its parent for a moment
 * as an extension host does).
 */
export async function stopTree(child: ChildProcess, guardMs = 10_000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  // Who belongs to it, read before anyone exits (an orphan's parent becomes init).
  const pids = processTree(pid);
  signal(-pid, 'SIGTERM');
  if (await exited(pids, guardMs)) return;
  signal(-pid, 'SIGKILL');
  for (const other of pids) signal(other, 'SIGKILL');
  if (!(await exited(pids, guardMs))) throw new Error(`processes ${pids.filter(isRunning).join(', ')} did not exit after SIGKILL`);
}
