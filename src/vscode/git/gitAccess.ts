/**
 * The built-in Git extension, when it is there and enabled: its API, which open repository is
 * an agent job's, and the `docsAdmin.gitAvailable` context key the review commands' menus
 * depend on. Absent or disabled (`git.enabled: false`), nothing else in Docs Admin changes.
 * Repositories opened (or remotes added) later are picked up: `onDidChange` fires.
 */
import * as vscode from 'vscode';
import { findRemote } from '../../core/agent/remote';
import type { Logger } from '../../core/log';
import type { API, GitExtension, Remote, Repository } from './api';

export const GIT_EXTENSION_ID = 'vscode.git';
export const GIT_AVAILABLE_CONTEXT = 'docsAdmin.gitAvailable';

export interface RepositoryMatch {
  repository: Repository;
  remote: Remote;
}

/** The API of an enabled Git extension; undefined while disabled (or not ready). */
function apiOf(git: GitExtension, log: Logger): API | undefined {
  if (!git.enabled) return undefined;
  try {
    return git.getAPI(1);
  } catch (error) {
    log.warn(`The Git extension's API is not available: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

export class GitAccess implements vscode.Disposable {
  private extensionSubscriptions: vscode.Disposable[] = [];
  private apiSubscriptions: vscode.Disposable[] = [];
  private readonly repositorySubscriptions = new Map<string, vscode.Disposable>();
  /** Each open repository's remotes, as last seen (a change of them refreshes the rows). */
  private readonly remotesSeen = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private current: API | undefined;
  private extension: GitExtension | undefined;
  private disposed = false;

  constructor(private readonly log: Logger) {}

  /** The Git extension's API, while it is enabled. */
  get api(): API | undefined {
    return this.current;
  }

  get available(): boolean {
    return this.current !== undefined;
  }

  /** Finds and activates the Git extension, in the background (activation does not wait for it). */
  start(): void {
    void this.connect().catch((error: unknown) => this.log.warn(`Git extension unavailable: ${error instanceof Error ? error.message : String(error)}`));
    this.extensionSubscriptions.push(
      vscode.extensions.onDidChange(() => {
        // An extension installed or enabled later (the Git extension among them).
        if (this.extension === undefined) void this.connect().catch(() => undefined);
      }),
    );
  }

  private async connect(): Promise<void> {
    if (this.extension !== undefined) return;
    const extension = vscode.extensions.getExtension<GitExtension>(GIT_EXTENSION_ID);
    if (extension === undefined) {
      this.log.info('The Git extension (vscode.git) is not installed or is disabled: Review Changes and Check Out Agent Branch are hidden.');
      this.setApi(undefined);
      return;
    }
    const git = extension.isActive ? extension.exports : await extension.activate();
    if (this.disposed || this.extension !== undefined) return;
    this.extension = git;
    // The Git extension announces itself enabled before its API can be had: ask on the next turn.
    this.extensionSubscriptions.push(git.onDidChangeEnablement(() => setTimeout(() => this.setApi(apiOf(git, this.log)), 0)));
    if (!git.enabled) this.log.info('The Git extension is disabled (git.enabled): Review Changes and Check Out Agent Branch are hidden until it is enabled.');
    this.setApi(apiOf(git, this.log));
  }

  private setApi(api: API | undefined): void {
    if (this.disposed) return;
    for (const s of this.apiSubscriptions) s.dispose();
    this.apiSubscriptions = [];
    this.forgetRepositories();
    this.current = api;
    void vscode.commands.executeCommand('setContext', GIT_AVAILABLE_CONTEXT, api !== undefined);
    if (api !== undefined) {
      for (const repository of api.repositories) this.watch(repository);
      this.apiSubscriptions.push(
        api.onDidOpenRepository((repository) => {
          this.watch(repository);
          this.emitter.fire();
        }),
        api.onDidCloseRepository((repository) => {
          const root = repository.rootUri.toString();
          this.repositorySubscriptions.get(root)?.dispose();
          this.repositorySubscriptions.delete(root);
          this.remotesSeen.delete(root);
          this.emitter.fire();
        }),
        api.onDidChangeState(() => this.emitter.fire()),
      );
    }
    this.emitter.fire();
  }

  /** Follows a repository's remotes (its state changes often: only a change of remotes counts). */
  private watch(repository: Repository): void {
    const root = repository.rootUri.toString();
    if (this.repositorySubscriptions.has(root)) return;
    const remotes = () => repository.state.remotes.map((r) => `${r.name} ${r.fetchUrl ?? ''} ${r.pushUrl ?? ''}`).join('\n');
    this.remotesSeen.set(root, remotes());
    this.repositorySubscriptions.set(
      root,
      repository.state.onDidChange(() => {
        const now = remotes();
        if (now === this.remotesSeen.get(root)) return;
        this.remotesSeen.set(root, now);
        this.emitter.fire();
      }),
    );
  }

  private forgetRepositories(): void {
    for (const s of this.repositorySubscriptions.values()) s.dispose();
    this.repositorySubscriptions.clear();
    this.remotesSeen.clear();
  }

  /** The open repository (and its remote) whose remote is `repositoryUrl`; undefined when none is. */
  find(repositoryUrl: string): RepositoryMatch | undefined {
    for (const repository of this.current?.repositories ?? []) {
      const remote = findRemote(repositoryUrl, repository.state.remotes);
      if (remote !== undefined) return { repository, remote };
    }
    return undefined;
  }

  dispose(): void {
    this.disposed = true;
    for (const s of [...this.extensionSubscriptions, ...this.apiSubscriptions]) s.dispose();
    this.forgetRepositories();
    this.emitter.dispose();
  }
}
