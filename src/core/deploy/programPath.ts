/**
 * Which file a rollout runs: the program named by the template (`helm`), as an absolute path,
 * before anything is spawned. A bare name is looked up in `PATH` only: never in the folder the
 * rollout runs in (the repository), which Windows searches first when it starts a program by its
 * name, and a POSIX `PATH` does too when it holds an empty entry or `.`: a `helm.exe` (or `helm`)
 * committed to a repository would run instead. So relative `PATH` entries are skipped, and on
 * Windows only the extensions that start without a shell (`.exe`, `.com`, as `PATHEXT` lists
 * them) are tried. A name with a path in it (`./scripts/rollout.sh`, `C:\tools\helm.exe`) is the
 * person's own choice of file, relative to the rollout's folder. Pure (the file system is asked
 * through `isExecutable`), so Windows' rules are tested anywhere.
 */
import * as l10n from '@vscode/l10n';
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface ProgramLookup {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The folder the rollout runs in (a path in the template is relative to it). */
  cwd: string;
  /** Whether `path` is a file this machine can run. */
  isExecutable(path: string): boolean;
}

export type ProgramPath = { ok: true; path: string } | { ok: false; reason: string };

/** Windows reads variable names whatever their case (`Path`, `PATH`). */
function variable(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** The extensions Windows would try, of those a program starts with without a shell. */
function windowsExtensions(env: NodeJS.ProcessEnv): string[] {
  const listed = (variable(env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD').split(';').map((e) => e.trim().toLowerCase());
  const runnable = listed.filter((e) => e === '.exe' || e === '.com');
  return runnable.length > 0 ? runnable : ['.exe'];
}

export function resolveProgram(program: string, lookup: ProgramLookup): ProgramPath {
  const windows = lookup.platform === 'win32';
  const path = windows ? win32 : posix;
  if (program === '') return { ok: false, reason: l10n.t('the rollout names no program') };
  const hasPath = windows ? /[\\/]/.test(program) : program.includes('/');
  if (hasPath) {
    const full = path.resolve(lookup.cwd, program);
    return lookup.isExecutable(full) ? { ok: true, path: full } : { ok: false, reason: l10n.t('{0} is not a program this machine can run', full) };
  }
  const extensions = windows ? windowsExtensions(lookup.env) : [];
  const own = path.extname(program).toLowerCase();
  const names = !windows ? [program] : extensions.includes(own) ? [program] : extensions.map((e) => `${program}${e}`);
  const dirs = (variable(lookup.env, 'PATH', lookup.platform) ?? '').split(path.delimiter).map((d) => (windows ? d.trim().replace(/^"(.*)"$/, '$1') : d));
  for (const dir of dirs) {
    // An empty entry, `.` or any relative one means the rollout's own folder: never looked in.
    if (dir === '' || !path.isAbsolute(dir)) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (lookup.isExecutable(candidate)) return { ok: true, path: candidate };
    }
  }
  return {
    ok: false,
    reason: windows
      ? l10n.t('{0} was not found on PATH (as {1}; the rollout\'s own folder is never searched). Install it, or name its full path in the rollout command', program, names.join(', '))
      : l10n.t('{0} was not found on PATH (the rollout\'s own folder is never searched). Install it, or name its full path in the rollout command', program),
  };
}

/** The lookup of this machine: its platform, a real file that can be run. */
export function systemLookup(env: NodeJS.ProcessEnv, cwd: string): ProgramLookup {
  return {
    platform: process.platform,
    env,
    cwd,
    isExecutable: (file) => {
      try {
        if (!statSync(file).isFile()) return false;
        if (process.platform !== 'win32') accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
