/**
 * The editor's side of the checks (issue 38 item 3): one model kept up to date as files change,
 * each change answered with the problems of just the files it can affect, grouped by file (an
 * empty list clears a file's problems). A keystroke re-parses the one page on this thread (a
 * page parses in milliseconds) and re-checks it and, when its anchors changed, the files linking
 * to it. The first whole-site load runs on worker threads (load.ts), so the extension host stays
 * free. No I/O here: the caller hands in texts.
 */
import { checkConfig, checkFile, sortProblems, withSeverities, type CheckOptions } from './checks';
import { readConfig } from './config';
import { factsOf } from './facts';
import { isParsed } from './files';
import type { Libraries } from './libraries';
import type { SiteModel } from './model';
import type { Problem } from './siteTypes';

/** Problems per file (relative path): every file named has its whole new list. */
export type ProblemsByFile = Map<string, Problem[]>;

export class SiteChecker {
  /** The files that had problems at the last report, so a fix clears them. */
  private reported = new Set<string>();
  /** The configuration's problems at the last whole check (a page's text does not change them). */
  private configProblems: Problem[] = [];

  constructor(
    readonly model: SiteModel,
    private readonly libraries: Libraries,
    private options: CheckOptions = {},
  ) {}

  private group(files: Iterable<string>, problems: Problem[]): ProblemsByFile {
    const byFile: ProblemsByFile = new Map();
    for (const file of files) byFile.set(file, []);
    for (const p of sortProblems(withSeverities(problems, this.options))) {
      let list = byFile.get(p.file);
      if (list === undefined) byFile.set(p.file, (list = []));
      list.push(p);
    }
    return byFile;
  }

  /** Every file's problems (the first report, and after a change of docs.json or the options). */
  all(): ProblemsByFile {
    const problems: Problem[] = [];
    for (const file of this.model.parsedFiles()) problems.push(...checkFile(this.model, file));
    this.configProblems = checkConfig(this.model);
    problems.push(...this.configProblems);
    const result = this.group([...this.reported], problems);
    this.reported = new Set([...result].filter(([, list]) => list.length > 0).map(([file]) => file));
    return result;
  }

  setOptions(options: CheckOptions): ProblemsByFile {
    this.options = options;
    return this.all();
  }

  /** A page or snippet's new text (typed, saved, or created): its problems and those of the files it affects. */
  changeText(file: string, text: string): ProblemsByFile {
    if (!isParsed(file)) return new Map();
    const known = this.model.hasFile(file);
    const changed = this.model.setFacts(file, factsOf(text, this.libraries));
    // A new page can mend links anywhere (and leave the navigation); a changed one only its linkers.
    if (!known) return this.all();
    const affected = this.model.affectedBy(file, changed);
    const set = new Set(affected);
    const problems = [...affected.flatMap((f) => checkFile(this.model, f)), ...this.configProblems.filter((p) => set.has(p.file))];
    const result = this.group(affected, problems);
    for (const [f, list] of result) {
      if (list.length > 0) this.reported.add(f);
      else this.reported.delete(f);
    }
    return result;
  }

  /** A file created or deleted (any kind: an image too): links anywhere may change. */
  addFile(file: string, text?: string): ProblemsByFile {
    if (text !== undefined && isParsed(file)) return this.changeText(file, text);
    this.model.addFile(file);
    return this.all();
  }

  removeFile(file: string): ProblemsByFile {
    this.model.removeFile(file);
    const result = this.all();
    result.set(file, []);
    return result;
  }

  /** docs.json (or a file it `$ref`s) changed: the configuration is read again, and everything re-checked. */
  changeConfig(readFile: (file: string) => string | undefined): ProblemsByFile {
    this.model.setConfig(readConfig(readFile));
    return this.all();
  }
}
