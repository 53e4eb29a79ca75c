// The preload exposes exactly one object, `window.ledgerdesk`: one function per
// desk operation, each invoking its own IPC channel with the input and nothing
// else. No ipcRenderer, no event objects, no Node reach the page.
import { contextBridge, ipcRenderer } from 'electron';
import { DESK_OPERATIONS, deskChannel } from '../shared/desk';
import type { DeskBridge } from '../renderer/src/desk';

const bridge = Object.freeze(Object.fromEntries(DESK_OPERATIONS.map((name) => [name, (input: unknown) => ipcRenderer.invoke(deskChannel(name), input)]))) as DeskBridge;

contextBridge.exposeInMainWorld('ledgerdesk', bridge);
