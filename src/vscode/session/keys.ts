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

/** An admin key, and the origin of the server it was set for. */
export interface StoredKey {
  key: string;
  /** `https://api.example.com`; absent for a key stored by a version that kept no origin (never sent until confirmed). */
  origin?: string;
}

/** The secret's text: JSON since origins are kept; a bare key before (an admin key never starts with `{`). */
function parseStored(value: string | undefined): StoredKey | undefined {
  if (value === undefined) return undefined;
  if (!value.startsWith('{')) return { key: value };
  try {
    const parsed = JSON.parse(value) as { key?: unknown; origin?: unknown };
    if (typeof parsed.key !== 'string') return undefined;
    return typeof parsed.origin === 'string' ? { key: parsed.key, origin: parsed.origin } : { key: parsed.key };
  } catch {
    return undefined;
  }
}

/**
 * One admin key per environment, only in SecretStorage, bound to the origin of the server it was
 * set for: the session sends it nowhere else (a base URL changed by a link, settings sync,
 * another extension or a typo gets nothing until the person sets the key again or confirms).
 */
export class KeyStore {
  private readonly cache = new Map<string, StoredKey | undefined>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(environmentId: string): Promise<string | undefined> {
    return (await this.read(environmentId))?.key;
  }

  /** The key with the origin it was set for. */
  async read(environmentId: string): Promise<StoredKey | undefined> {
    if (this.cache.has(environmentId)) return this.cache.get(environmentId);
    let value: StoredKey | undefined;
    try {
      value = parseStored(await this.secrets.get(PREFIX + environmentId));
    } catch (error) {
      throw new KeychainError(vscode.l10n.t('Could not read the admin key in the system keychain ({0}).', reasonOf(error)), error);
    }
    this.cache.set(environmentId, value);
    return value;
  }

  /** Stores the key for the server at `origin` (the environment's base URL, named to the person when it was set). */
  async set(environmentId: string, key: string, origin: string): Promise<void> {
    const stored: StoredKey = { key, origin };
    try {
      await this.secrets.store(PREFIX + environmentId, JSON.stringify(stored));
    } catch (error) {
      throw new KeychainError(vscode.l10n.t('Could not store the admin key in the system keychain ({0}).', reasonOf(error)), error);
    }
    this.cache.set(environmentId, stored);
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
    return [...this.cache.values()].flatMap((k) => (k === undefined ? [] : [k.key]));
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
