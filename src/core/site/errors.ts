/** The site model's typed errors (a small module: the CLI's exit codes load it on a failure). */
export class DocsRootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocsRootError';
  }
}
