// The app's own renderer page: the one URL the window may show and the one
// frame the desk answers over IPC (hash routes like #/log are the same page).
export function isRendererPage(url: string, rendererUrl: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(rendererUrl);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}
