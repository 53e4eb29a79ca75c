// The preload exposes one typed object and nothing else (no ipcRenderer).
// The desk operations arrive with the review screens; for now the renderer
// learns which version it talks to.
import { contextBridge } from 'electron';

export interface LedgerdeskBridge {
  readonly version: string;
}

const bridge: LedgerdeskBridge = Object.freeze({ version: '0.1.0' });
contextBridge.exposeInMainWorld('ledgerdesk', bridge);
