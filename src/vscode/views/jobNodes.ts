/**
 * The rows this extension handed out. A command run from a row's menu gets the very object the
 * tree gave VS Code; a link gets whatever its JSON says (`{"key":"export:e1","kind":"export"}`
 * reads like a row). So a command takes a row only when it is one of these, checked by identity:
 * the tree's nodes, and the ones the extension's own code makes to run a command on a job (a
 * notification's action, Extract… after a download).
 *
 * A link can also name a tree item by its handle (`{"$treeViewId":…,"$treeItemHandle":…}`), which
 * VS Code turns into the element itself; the handle of an item with an id is `1/<id>`. So the
 * items' ids carry a secret of this installation (`itemId`), and a link cannot name one.
 */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { ShelfRow } from '../../core/bundle/shelf/shelfRows';
import type { JobKey, TrackedJob } from '../../core/jobs/trackedJob';

/** A row: plain data, the job's key. `getTreeItem` builds what it shows. */
export interface JobNode {
  readonly key: JobKey;
  readonly kind: TrackedJob['kind'];
  /** Set on the rows under an export job: its downloaded archive, its extracted folder. */
  readonly part?: ShelfRow['part'];
}

const SALT = 'docsAdmin.treeItemSalt';

export class JobNodes {
  private readonly issued = new WeakSet<object>();
  private readonly salt: string;

  constructor(state: vscode.Memento) {
    // Kept, so that VS Code's memory of the rows (expanded, selected) holds across reloads.
    let salt = state.get<string>(SALT);
    if (salt === undefined) {
      salt = randomBytes(12).toString('base64url');
      void state.update(SALT, salt);
    }
    this.salt = salt;
  }

  /** Marks a row as this extension's own, and returns it. */
  issue<T extends JobNode>(node: T): T {
    this.issued.add(node);
    return node;
  }

  /** A new row of this extension's own for a job (to run a command on it from code). */
  of(key: JobKey, kind: TrackedJob['kind']): JobNode {
    return this.issue({ key, kind });
  }

  /** Whether `value` is a row this extension handed out (never a look-alike from JSON). */
  has(value: unknown): value is JobNode {
    return typeof value === 'object' && value !== null && this.issued.has(value);
  }

  /** A tree item's id: the row's own, behind this installation's secret. */
  itemId(id: string): string {
    return `${this.salt}/${id}`;
  }
}
