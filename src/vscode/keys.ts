import * as vscode from 'vscode';

const PREFIX = 'docsAdmin.adminKey.';

/** The system keychain behind SecretStorage failed: say so, and what to do. */
export class KeychainError extends Error {
  /** `message`: what failed, in a sentence; what to do on Linux is added. */
  constructor(message: string, cause: unknown) {
    super(`${message} ${vscode.l10n.t('On Linux, make sure a keyring service (GNOME Keyring or KWallet) is running and unlocked, or start VS Code with --password-store=basic.')}`, { cause });
  }
}

const reasonOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** One admin key per environment, only in SecretStorage. */
export class KeyStore {
  private readonly cache = new Map<string, string | undefined>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(environmentId: string): Promise<string | undefined> {
    if (this.cache.has(environmentId)) return this.cache.get(environmentId);
    let value: string | undefined;
    try {
      value = await this.secrets.get(PREFIX + environmentId);
    } catch (error) {
      throw new KeychainError(vscode.l10n.t('Could not read the admin key in the system keychain ({0}).', reasonOf(error)), error);
    }
    this.cache.set(environmentId, value);
    return value;
  }

  async set(environmentId: string, key: string): Promise<void> {
    try {
      await this.secrets.store(PREFIX + environmentId, key);
    } catch (error) {
      throw new KeychainError(vscode.l10n.t('Could not store the admin key in the system keychain ({0}).', reasonOf(error)), error);
    }
    this.cache.set(environmentId, key);
  }

  async delete(environmentId: string): Promise<void> {
    try {
      await this.secrets.delete(PREFIX + environmentId);
    } catch (error) {
      throw new KeychainError(vscode.l10n.t('Could not delete the admin key in the system keychain ({0}).', reasonOf(error)), error);
    }
    this.cache.set(environmentId, undefined);
  }

  /** Keys known in this window, for redaction. */
  known(): string[] {
    return [...this.cache.values()].filter((k): k is string => k !== undefined);
  }

  /** Fires with the environment id whose key changed, here or in another window. */
  onDidChange(listener: (environmentId: string) => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (!event.key.startsWith(PREFIX)) return;
      const id = event.key.slice(PREFIX.length);
      this.cache.delete(id);
      listener(id);
    });
  }
}
