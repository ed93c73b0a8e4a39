import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'docs-admin.docs-admin';

interface Manifest {
  contributes?: { commands?: { command: string; category?: string }[]; views?: Record<string, { id: string }[]> };
  activationEvents?: string[];
}

describe('activation', () => {
  it('finds the extension and activates it without error', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('declares no eager activation event', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as Manifest;
    for (const event of manifest.activationEvents ?? []) {
      assert.ok(event !== '*' && event !== 'onStartupFinished', `activation event ${event}`);
    }
  });
});

describe('commands', () => {
  it('registers every contributed command, and contributes every registered one', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    await extension?.activate();
    const manifest = extension?.packageJSON as Manifest;
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command).sort();
    assert.ok(contributed.length > 0, 'the manifest contributes commands');
    // The workbench registers `<view id>.focus` and the like for each contributed view.
    const views = Object.values(manifest.contributes?.views ?? {}).flat().map((v) => `${v.id}.`);
    assert.ok(views.length > 0, 'the manifest contributes views');
    const registered = (await vscode.commands.getCommands(true))
      .filter((id) => id.startsWith('docsAdmin.') && !views.some((prefix) => id.startsWith(prefix)))
      .sort();
    assert.deepEqual(
      contributed.filter((id) => !registered.includes(id)),
      [],
      'contributed but not registered',
    );
    assert.deepEqual(
      registered.filter((id) => !contributed.includes(id)),
      [],
      'registered but not contributed',
    );
  });

  it('gives every command the "Docs Admin" category', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as Manifest;
    for (const command of manifest.contributes?.commands ?? []) assert.equal(command.category, 'Docs Admin', command.command);
  });
});
