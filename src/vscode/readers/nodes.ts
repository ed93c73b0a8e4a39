/**
 * The Readers view's rows as plain data (what each row is about, by key), made only by the tree
 * itself and kept, so a command can tell a row of ours from anything else passed to it (a link's
 * JSON arguments, another extension's object): `ReaderNodes.owns`.
 */
export type ReaderGroup = 'pages' | 'questions' | 'searches' | 'unmatched';

export type ReaderNode =
  | { readonly type: 'group'; readonly group: ReaderGroup }
  /** A page (a file, or an unmatched URL path) under a group: under "questions" it shows only its questions. */
  | { readonly type: 'page'; readonly key: string; readonly group: ReaderGroup }
  | { readonly type: 'feedback'; readonly key: string; readonly id: string; readonly group: ReaderGroup }
  | { readonly type: 'snippetLine'; readonly key: string; readonly id: string; readonly line: number; readonly group: ReaderGroup }
  /** `parent`: the page's key, or `category:<name>`; `group`: where the row sits (pages, unmatched or questions). */
  | { readonly type: 'question'; readonly parent: string; readonly id: string; readonly group: ReaderGroup }
  | { readonly type: 'category'; readonly category: string | undefined }
  | { readonly type: 'search'; readonly query: string };

export function nodeId(node: ReaderNode): string {
  switch (node.type) {
    case 'group':
      return `readers/${node.group}`;
    case 'page':
      return `readers/${node.group}/${node.key}`;
    case 'feedback':
      return `readers/${node.group}/${node.key}/feedback/${node.id}`;
    case 'snippetLine':
      return `readers/${node.group}/${node.key}/feedback/${node.id}/${node.line}`;
    case 'question':
      return `readers/${node.group}/${node.parent}/question/${node.id}`;
    case 'category':
      return `readers/questions/category/${node.category ?? ''}`;
    case 'search':
      return `readers/searches/${node.query}`;
  }
}

/** The tree's own nodes, one object per row, reused while the row lives. */
export class ReaderNodes {
  private readonly byId = new Map<string, ReaderNode>();
  private readonly made = new WeakSet<object>();

  get<T extends ReaderNode>(node: T): T {
    const id = nodeId(node);
    const known = this.byId.get(id);
    if (known !== undefined) return known as T;
    const frozen = Object.freeze({ ...node }) as T;
    this.byId.set(id, frozen);
    this.made.add(frozen);
    return frozen;
  }

  /** Whether `value` is a row this tree made (and not a look-alike). */
  owns(value: unknown): value is ReaderNode {
    return typeof value === 'object' && value !== null && this.made.has(value);
  }

  /** Drops every node (the data changed); rows made later are new objects. */
  clear(): void {
    this.byId.clear();
  }
}
