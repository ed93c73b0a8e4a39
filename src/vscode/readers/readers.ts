/**
 * The reader analytics feature, built at activation (nothing asked, nothing scanned then): the
 * docs roots, the model, the Readers view and the page CodeLens.
 */
import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Session } from '../session/environmentSession';
import { DocsSites } from './docsSites';
import { PageLens } from './pageLens';
import { ReadersModel } from './readersModel';
import { ReadersView } from './readersView';

export class Readers implements vscode.Disposable {
  readonly sites: DocsSites;
  readonly model: ReadersModel;
  readonly view: ReadersView;
  readonly lens: PageLens;

  /**
   * `itemId`: a row's tree item id, behind this installation's secret (tree/jobNodes.ts), so a
   * link cannot name a row by its handle.
   */
  constructor(session: Session, memento: vscode.Memento, log: Logger, onSeen: () => void, itemId: (id: string) => string) {
    this.sites = new DocsSites(log);
    this.model = new ReadersModel(session, this.sites, memento, log);
    this.view = new ReadersView(this.model, onSeen, itemId);
    this.lens = new PageLens(this.model);
  }

  dispose(): void {
    this.lens.dispose();
    this.view.dispose();
    this.model.dispose();
    this.sites.dispose();
  }
}
