// A PostgreSQL server's address as it is safe to print or log.

/** The server's address as it is safe to print: without its password. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unreadable address)';
  }
}
