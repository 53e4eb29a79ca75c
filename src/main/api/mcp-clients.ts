// Ready-to-paste MCP client configurations for a token (Tokens screen; the
// README shows the same shapes).
export interface McpClientConfigs {
  claudeCode: string;
  cursor: string;
  vscode: string;
  claudeDesktop: string;
}

export function mcpClientConfigs(mcpUrl: string, token: string): McpClientConfigs {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    claudeCode: `claude mcp add --transport http ledgerdesk ${mcpUrl} --header "Authorization: Bearer ${token}"`,
    cursor: json({ mcpServers: { ledgerdesk: { url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } }),
    vscode: json({ servers: { ledgerdesk: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } }),
    claudeDesktop: json({
      mcpServers: {
        ledgerdesk: {
          command: 'npx',
          args: ['-y', 'mcp-remote', mcpUrl, '--header', 'Authorization:${LEDGERDESK_AUTH}'],
          env: { LEDGERDESK_AUTH: `Bearer ${token}` },
        },
      },
    }),
  };
}
