/**
 * A Track…-by-id command (Track Agent Job…, Track Deployment…): an id from code is tracked; one
 * from a link is shown in the box for the person to confirm; one typed is checked as it is typed.
 * A key pasted in the box would be sent in a request's path: it is told apart and refused.
 */
import type * as vscode from 'vscode';
import { command, requireService, valueFromCode, type Deps } from './commandToolkit';
import { knownKeys } from '../session/environments';
import type { JobsService } from '../../core/jobs/service';

export interface TrackById {
  /** The command's id. */
  id: string;
  title: string;
  prompt: string;
  /** Checks what was given: an id, or why not (`keys` are refused). */
  parse(value: string, keys: readonly string[]): { ok: true; id: string } | { ok: false; reason: string };
  /** Tracks the id and shows its row. */
  track(service: JobsService, id: string): Promise<void>;
}

/** Registers the command; it returns the id tracked, or undefined when the box was dismissed. */
export function trackByIdCommand(deps: Deps, spec: TrackById): vscode.Disposable {
  return command(spec.id, deps, async (given?: unknown) => {
    const { value: fromCodeValue, suggested } = valueFromCode(given);
    const service = requireService(deps);
    const keys = await knownKeys(deps.keys);
    const value =
      fromCodeValue ??
      (await deps.ui.inputBox({
        title: spec.title,
        prompt: spec.prompt,
        ...(suggested === undefined ? {} : { value: suggested }),
        ignoreFocusOut: true,
        validateInput: (v) => {
          const r = spec.parse(v, keys);
          return r.ok ? undefined : r.reason;
        },
      }));
    if (value === undefined) return undefined;
    const parsed = spec.parse(value, keys);
    if (!parsed.ok) throw new Error(parsed.reason);
    await spec.track(service, parsed.id);
    return parsed.id;
  });
}
