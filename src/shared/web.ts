// What the screens may load and link to, defined once for the desktop shell
// (window.ts), the browser desk (desk/http.ts), the page itself (index.html,
// through electron.vite.config.ts) and the screens. Plain data only.

/**
 * No inline styles or scripts: React sets its style props through the DOM
 * (which style-src does not govern), and the stylesheets are files. blob: images
 * are the charts' downloads; nothing is framed, nothing is a plugin.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** The web pages the app links to; the desktop shell opens these, and only these, in the system browser. */
export const EXTERNAL_LINKS = {
  mcpClients: 'https://modelcontextprotocol.io/quickstart/user',
  hledger: 'https://hledger.org/',
  beancount: 'https://beancount.github.io/docs/',
} as const;

export const isExternalLink = (url: string): boolean => (Object.values(EXTERNAL_LINKS) as string[]).includes(url);
